# A stand-in for RubyMotion's functional specs (`tests SomeController`) under plain Bacon:
# each spec of the context gets a fresh `controller`.
module Bacon
  class Context
    def tests(controller_class, _options = {})
      before { @controller = controller_class.new }
    end

    attr_reader :controller
  end
end

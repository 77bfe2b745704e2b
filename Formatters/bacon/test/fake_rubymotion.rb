# frozen_string_literal: true

# A stand-in for RubyMotion's Bacon ("1.3", lib/motion/spec.rb and spec/helpers/ui.rb), which only runs
# inside an iOS app: the same hook calls (handle_specification_begin/end, handle_requirement_begin/end(error),
# handle_summary), the same error strings ("FAILED - message", "ERROR: Class - message"), the same ErrorLog
# entries, contexts run one after the other (nested ones too, under their own name), `Bacon::Outputs`, and
# the functional API's retrying `view` / `views` lookups and `wait_for_change`. Synchronous: it sleeps.

module Bacon
  VERSION = '1.3'
  Counter = Hash.new(0)
  ErrorLog = +''
  Backtraces = true

  module SpecDoxOutput
    def handle_specification_begin(name)
      puts spaces + name
    end

    def handle_specification_end
      puts if Counter[:context_depth] == 1
    end

    def handle_requirement_begin(description)
      print "#{spaces}  - #{description}"
    end

    def handle_requirement_end(error)
      puts error.empty? ? '' : " [#{error}]"
    end

    def handle_summary
      print ErrorLog if Backtraces
      puts format('%d specifications (%d requirements), %d failures, %d errors',
                  *Counter.values_at(:specifications, :requirements, :failed, :errors))
    end

    def spaces
      '  ' * (Counter[:context_depth] - 1)
    end
  end

  Outputs = { 'spec_dox' => SpecDoxOutput } # rubocop:disable Style/MutableConstant -- outputs add themselves

  class Error < RuntimeError
    attr_accessor :count_as

    def initialize(count_as, message)
      @count_as = count_as
      super(message)
    end
  end

  # One `it`, run later, as RubyMotion's Specification does.
  class Specification
    attr_reader :description

    def initialize(context, description, block, before)
      @context = context
      @description = description
      @block = block
      @before = before.dup
      @error = ''
    end

    def run
      Bacon.handle_requirement_begin(@description)
      Counter[:depth] += 1
      requirements = Counter[:requirements]
      execute_block { @before.each { |filter| @context.instance_eval(&filter) } }
      execute_block { @context.instance_eval(&@block) } unless @failed
      missing(requirements)
      Counter[:depth] -= 1
      Bacon.handle_requirement_end(@error)
    end

    def postpone_block_until_change(object, key_path, timeout, &block)
      deadline = Time.now + timeout
      before = object.send(key_path)
      sleep 0.01 while object.send(key_path) == before && Time.now < deadline
      if object.send(key_path) == before
        execute_block { raise Error.new(:failed, "timeout exceeded: #{@context.name} - #{@description}") }
      else
        execute_block(&block)
      end
    end

    private

    def missing(requirements)
      return if @failed || Counter[:requirements] != requirements

      execute_block { raise Error.new(:missing, "empty specification: #{@context.name} #{@description}") }
    end

    def execute_block
      yield
    rescue Object => e
      @failed = true
      log(e)
      @error = count(e)
    end

    # Counts the error where RubyMotion does; returns the string its hooks get.
    def count(error)
      kind = error.is_a?(Error) ? error.count_as : :errors
      Counter[kind] += 1
      error.is_a?(Error) ? "#{kind.to_s.upcase} - #{error}" : "ERROR: #{error.class} - #{error}"
    end

    def log(error)
      ErrorLog << "#{error.class}: #{error.message}\n"
      error.backtrace.grep_v(%r{bin/macbacon|/mac_bacon\.rb:\d+}).each_with_index do |line, i|
        ErrorLog << "\t#{line}#{i.zero? ? ": #{@context.name} - #{@description}" : ''}\n"
      end
      ErrorLog << "\n"
    end
  end

  class Context
    attr_reader :name

    def initialize(name, before = nil, &block)
      @name = name
      @before = before ? before.dup : []
      @specifications = []
      Bacon.add_context(self)
      instance_eval(&block)
    end

    def before(&block)
      @before << block
    end

    def it(description, &block)
      Counter[:specifications] += 1
      @specifications << Specification.new(self, description, block, @before)
    end

    def describe(*args, &block)
      Context.new(args.join(' '), @before, &block)
    end

    def wait_for_change(object, key_path, timeout = 1, &block)
      @current.postpone_block_until_change(object, key_path, timeout, &block)
    end

    def run
      @specifications.each do |spec|
        @current = spec
        spec.run
      end
    end
  end

  def self.add_context(context)
    (@contexts ||= []) << context
  end

  def self.current_context
    @current_context
  end

  # Bacon.run and Bacon.context_did_finish, without the run loop.
  def self.run
    extend(Outputs[ENV.fetch('output', nil)] || SpecDoxOutput) unless respond_to?(:handle_specification_begin)
    @contexts.each { |context| run_context(context) }
    handle_summary
    exit(Counter.values_at(:failed, :errors).sum)
  end

  def self.run_context(context)
    @current_context = context
    Counter[:context_depth] += 1
    handle_specification_begin(context.name)
    context.run
    handle_specification_end
    Counter[:context_depth] -= 1
  end
  private_class_method :run_context
end

module Kernel
  private

  def describe(*args, &block)
    Bacon::Context.new(args.join(' '), &block)
  end
end

class Should
  def initialize(object)
    @object = object
  end

  def equal(value)
    satisfy("#{@object.inspect}.==(#{value.inspect}) failed") { @object == value }
  end

  def satisfy(description)
    Bacon::Counter[:requirements] += 1
    raise Bacon::Error.new(:failed, description) unless yield
  end
end

class Object
  def should
    Should.new(self)
  end
end

module RunLoopHelpers
  extend self # rubocop:disable Style/ModuleFunction -- public on the module and in the contexts that include it

  MIN_INTERVAL = 0.01

  def proper_wait(seconds)
    sleep seconds
  end

  def wait_till(timeout = Bacon::Functional.default_timeout)
    result = nil
    interval = MIN_INTERVAL
    while interval < timeout
      proper_wait(interval)
      break if (result = yield)

      interval *= 2
    end
    result
  end
end

# A window whose views appear some time after it is made.
class FakeWindow
  FakeView = Struct.new(:label, :kind, :appears_after)

  def initialize(views)
    @views = views
    @made = Time.now
  end

  def viewByName(label, timeout = Bacon::Functional.default_timeout)
    RunLoopHelpers.wait_till(timeout) { visible.find { |view| view.label == label } }
  end

  def viewsByClass(kind, timeout = Bacon::Functional.default_timeout)
    found = RunLoopHelpers.wait_till(timeout) do
      views = visible.select { |view| view.kind == kind }
      views unless views.empty?
    end
    found || []
  end

  private

  def visible
    @views.select { |view| Time.now - @made >= view.appears_after }
  end
end

module Bacon
  module Functional
    class << self
      attr_accessor :default_timeout
    end
    self.default_timeout = 3

    module API
      include RunLoopHelpers

      def window
        @window ||= FakeWindow.new(@controller_class.new.views)
      end

      def view(label)
        window.viewByName(label) || raise(Bacon::Error.new(:error, "Unable to find a view with label `#{label}'"))
      end

      def views(view_class)
        views = window.viewsByClass(view_class)
        raise Bacon::Error.new(:error, "Unable to find any view of class `#{view_class}'") if views.empty?

        views
      end
    end
  end

  class Context
    # The spec running, as RubyMotion's Context#current_specification.
    def current_specification
      @current
    end

    def tests(controller_class, options = {})
      @controller_class = controller_class
      @options = options
      extend Bacon::Functional::API
      before { @window = nil }
    end
  end
end

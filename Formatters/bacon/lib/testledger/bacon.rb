# frozen_string_literal: true

# Loads TestLedger's Bacon output module, testledger.rb, which the gem holds beside lib/.
#
#   require 'testledger/bacon'                                   # at the top of a spec file
#   bacon -r testledger/bacon -o TestLedger spec/*_spec.rb       # or from the command line
#
# In a RubyMotion project's Rakefile (the gem in its Gemfile, loaded by `Bundler.require`) it
# adds the module to the spec app's files instead, before the project's spec helpers and specs:
# `rake spec output=testledger` records.
formatter = File.expand_path('../../testledger.rb', __dir__)

if defined?(Motion::Project::App)
  Motion::Project::App.setup do |app|
    files = app.spec_files
    next if files.include?(formatter)

    specs = File.expand_path(app.specs_dir)
    first = files.index { |file| File.expand_path(file).start_with?("#{specs}/") } || files.size
    files.insert(first, formatter)
  end
else
  require formatter
  # `bacon` chooses its output before it loads the spec files: when a spec file requires this
  # and the output is SpecDox, Bacon's default, TestLedger's (the same lines) takes over.
  # Another output (`-p`, `-q`, `-k`) is left alone.
  output = Bacon.singleton_class.ancestors.find { |mod| mod.name.to_s =~ /\ABacon::\w+Output\z/ }
  Bacon.extend(Bacon::TestLedgerOutput) if output == Bacon::SpecDoxOutput
end

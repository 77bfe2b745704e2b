# frozen_string_literal: true

# The Bacon output module as a gem: `require 'testledger/bacon'` loads testledger.rb, the one
# file a project can also copy by hand.
#
#   TESTLEDGER_VERSION=1.2.3 gem build testledger-bacon.gemspec
#
# The version is TESTLEDGER_VERSION when set (a leading `v` is dropped), else the one
# `testledger --version` prints (Sources/LedgerCore/TestLedgerVersion.swift, in a checkout),
# else 0.0.0.
swift_constant = File.expand_path('../../Sources/LedgerCore/TestLedgerVersion.swift', __dir__)
version = ENV['TESTLEDGER_VERSION'].to_s.strip.sub(/\Av/, '')
version = File.read(swift_constant)[/current = "([^"]+)"/, 1].to_s if version.empty? && File.file?(swift_constant)
version = '0.0.0' if version.empty?

Gem::Specification.new do |spec|
  spec.name = 'testledger-bacon'
  spec.version = version
  spec.summary = "TestLedger's output module for Bacon and RubyMotion specs"
  spec.description = 'Prints what SpecDoxOutput prints and records every spec into TestLedger ' \
                     '(`testledger ingest -`): outcomes, durations, failures, activities and predicates.'
  spec.authors = ['TestLedger maintainers']
  spec.license = 'Apache-2.0'
  # No dependency on the bacon gem: the module runs inside whichever Bacon loads it, and
  # RubyMotion's Bacon is not a gem.
  spec.files = ['lib/testledger/bacon.rb', 'testledger.rb', 'README.md']
  spec.require_paths = ['lib']
  spec.required_ruby_version = '>= 2.3'
end

# frozen_string_literal: true

# Runs specs through testledger.rb as RubyMotion's `rake spec output=testledger` does, on the stand-in
# fake_rubymotion.rb (RubyMotion needs an iOS app): prints what its SpecDoxOutput prints and exits
# with failures + errors. The Swift tests pin the line each spec is on here.
#   output=testledger TESTLEDGER_EVENTS=events.ndjson ruby Formatters/bacon/test/rubymotion_hooks.rb

require_relative 'fake_rubymotion'
Bacon::Functional.default_timeout = 0.3
require_relative '../testledger'

FakeTextField = Class.new

class FakeLoginController
  def views
    [FakeWindow::FakeView.new('Log in', Object, 0.05),
     FakeWindow::FakeView.new('Name', FakeTextField, 0), FakeWindow::FakeView.new('Password', FakeTextField, 0)]
  end
end

# Its value changes once, some time after it is made (never when `after` is nil).
class FakeProgress
  def initialize(after)
    @made = Time.now
    @after = after
  end

  def value
    @after && Time.now - @made >= @after ? 1 : 0
  end
end

describe 'Login screen' do
  tests FakeLoginController

  it 'finds the login button once it appears' do
    view('Log in').label.should.equal 'Log in'
  end

  it 'finds both text fields' do
    views(FakeTextField).size.should.equal 2
  end

  it 'cannot find a sign-up button' do
    view('Sign up')
  end

  it 'sees the progress change' do
    progress = FakeProgress.new(0.05)
    wait_for_change(progress, 'value', 1) { progress.value.should.equal 1 }
  end

  it 'times out waiting for a change' do
    wait_for_change(FakeProgress.new(nil), 'value', 0.1) { 1.should.equal 1 }
  end
end

describe 'Calculator' do
  it 'adds' do
    activity('Add') { (1 + 1).should.equal 2 }
  end

  it 'fails with a message' do
    (1 + 1).should.equal 3
  end

  it 'raises' do
    raise ArgumentError, 'boom'
  end

  it 'asserts nothing' do
    1 + 1
  end

  describe 'with memory' do
    it 'recalls the last result' do
      eventually('memory ready', timeout: 0.1) { true }.should.equal true
    end
  end
end

Bacon.run

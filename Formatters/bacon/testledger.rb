# TestLedger output module for Bacon 1.2 and RubyMotion's Bacon.
#
# Prints exactly what SpecDoxOutput prints and records every `it` as the Ledger event
# stream (v1) into `testledger ingest -`, or into the file named by TESTLEDGER_EVENTS, or to
# a server through `testledger upload -` when TESTLEDGER_URL and TESTLEDGER_TOKEN are set.
#
#   bacon -r ./Formatters/bacon/testledger -o TestLedger spec/*_spec.rb
#   rake spec output=testledger        # RubyMotion, with this file among the spec helpers
#
# Environment: TESTLEDGER_BIN (the binary, default `testledger` on PATH), TESTLEDGER_DB
# (passed through to it), TESTLEDGER_RUN (the run id), TESTLEDGER_PROJECT (default: the
# working directory's name), TESTLEDGER_EVENTS (write the stream to this file instead),
# TESTLEDGER_DISABLE=1 (record nothing). The runner's output and exit status never change,
# but for quarantine: specs quarantined as skipped do not run (they are recorded as skipped,
# "quarantined"), and failures of muted specs alone do not make Bacon exit 1. The list comes
# from `testledger quarantine list`, or from the JSON file named by TESTLEDGER_QUARANTINE.
# And for retries: with TESTLEDGER_TEST_RETRIES=N a failing spec (not a muted or empty one)
# runs again, before and after blocks too, up to N times until it passes, each run an attempt
# of the same test; Bacon's counts, ErrorLog and exit status follow the last attempt.
# For shards: with TESTLEDGER_SHARD=I/N only this shard's specs run (the others are neither run
# nor recorded). The plan (the file TESTLEDGER_SHARD_PLAN names, else `testledger shard plan`)
# places the specs the ledger has timed; any other spec goes to the shard its id hashes to, so
# that every spec runs in exactly one shard. And for new specs: with TESTLEDGER_REPEAT_NEW=N and
# TESTLEDGER_KNOWN_TESTS (a JSON array of the ids the base branch ran), a spec not named there
# runs N more times whatever each run ends as (within TESTLEDGER_REPEAT_NEW_BUDGET seconds, when
# set), and a failure in any run fails the run, naming the spec as a flaky new test.
#
# Inside specs: `activity(name) { }`, `capture(verifier, fields)`, `eventually { }` and
# `predicate(name) { }.holds` / `.doesnt_hold`; `ledger_layer :ui` tags a context.
# Test ids are `<context path>/<requirement>`, the context path being the names of the
# open `describe`s joined by spaces: the same id `testledger` reads from SpecDox output.

require 'bacon' unless defined?(Bacon::Context)
# Each line goes out as it is printed, so that `| testledger format` can time each spec by when
# its line arrives (Ruby buffers a pipe otherwise).
$stdout.sync = true
begin
  require 'securerandom'
rescue LoadError
  nil # RubyMotion: see TestLedger.uuid
end

module TestLedger
  FILE = File.expand_path(__FILE__)
  # What an attempt adds to Bacon's counters, taken back out when it is retried.
  RETRY_COUNTERS = %i[requirements failed errors missing].freeze
  RUNNER_FRAME = %r{(\A|/)(mac_)?bacon\.rb\z|/motion/spec(/helpers/ui)?\.rb\z|bin/(mac)?bacon\z}

  # Encodes the Ruby values events carry as JSON text.
  module JSON
    ESCAPES = { '"' => '\"', '\\' => '\\\\', "\n" => '\n', "\r" => '\r', "\t" => '\t' }.freeze

    def self.encode(value)
      case value
      when Hash then "{#{value.map { |key, item| "#{string(key.to_s)}:#{encode(item)}" }.join(',')}}"
      when Array then "[#{value.map { |item| encode(item) }.join(',')}]"
      when Float then value.finite? ? value.to_s : 'null'
      when Integer, true, false then value.to_s
      when nil then 'null'
      else string(value.to_s)
      end
    end

    def self.string(text)
      text = text.encode('UTF-8', invalid: :replace, undef: :replace) unless text.valid_encoding?
      escaped = text.gsub(/["\\\u0000-\u001f]/) { |char| ESCAPES[char] || format('\u%04x', char.ord) }
      "\"#{escaped}\""
    end
  end

  # Where the events go: a file (TESTLEDGER_EVENTS) or a `testledger ingest -` child.
  class Sink
    attr_reader :problem

    def initialize(env)
      @io = open(env)
    rescue SystemCallError, IOError => e
      @problem = "could not start #{command(env).join(' ')} (#{e.message})"
    end

    def write(line)
      @io&.write("#{line}\n")
    rescue SystemCallError, IOError => e
      @problem ||= "could not write events (#{e.message})"
      @io = nil
    end

    def close
      return unless @io

      @io.close
      status = $?
      failed = @command && status && !status.success?
      @problem ||= "#{@command} exited with status #{status.exitstatus}" if failed
    rescue SystemCallError, IOError => e
      @problem ||= "could not finish writing events (#{e.message})"
    end

    private

    def open(env)
      path = env['TESTLEDGER_EVENTS']
      return File.open(path, 'w').tap { |file| file.sync = true } if path && !path.empty?

      @command = command(env).join(' ')
      IO.popen(command(env), 'w', out: File::NULL).tap { |io| io.sync = true }
    end

    # With TESTLEDGER_URL and TESTLEDGER_TOKEN, `upload` sends to the server (batched, retried,
    # spooled while it is down); otherwise `ingest` stores into TESTLEDGER_DB. Under `testledger
    # record` (TESTLEDGER_JOURNAL_ONLY=1) the run is record's, in its ledger, whatever the server.
    def command(env)
      bin = env['TESTLEDGER_BIN']
      send = %w[TESTLEDGER_URL TESTLEDGER_TOKEN].all? { |name| env[name] && !env[name].empty? } &&
             env['TESTLEDGER_JOURNAL_ONLY'] != '1'
      [bin && !bin.empty? ? bin : 'testledger', send ? 'upload' : 'ingest', '--format', 'ledger', '-']
    end
  end

  # The tests in quarantine for this run: which to skip, which failures not to count.
  class Quarantine
    attr_reader :problem

    def initialize(env)
      @skipped = {}
      @muted = {}
      entries(env).each do |entry|
        next unless ['*', ''].include?(entry['configuration'])

        (entry['mode'] == 'skip' ? @skipped : @muted)[entry['test']] = entry['reason']
      end
    rescue StandardError, ScriptError => e
      @problem = "could not read the quarantine (#{e.message})"
    end

    def skipped?(id)
      @skipped.key?(id)
    end

    def skips_any?
      !@skipped.empty?
    end

    def muted?(id)
      @muted.key?(id)
    end

    private

    # `testledger quarantine list --format json`'s output, or the file TESTLEDGER_QUARANTINE names.
    def entries(env)
      TestLedger.ask(env, 'TESTLEDGER_QUARANTINE', %w[quarantine list], [])
    end
  end

  # The JSON in the file `variable` names, else `testledger ARGUMENTS --format json` for the
  # project's; `empty` where there is nothing to ask: a run written only to a file, RubyMotion's
  # specs in the simulator (which cannot start `testledger`), no binary (the recording's own
  # warning says so). With TESTLEDGER_URL, `testledger` asks the server.
  def self.ask(env, variable, arguments, empty)
    require 'json'
    path = env[variable]
    return ::JSON.parse(File.read(path)) if path && !path.empty?
    return empty if env['TESTLEDGER_DISABLE'] == '1' || env['TESTLEDGER_EVENTS'].to_s != ''
    return empty if defined?(Bacon::Specification)

    bin = env['TESTLEDGER_BIN'].to_s.empty? ? 'testledger' : env['TESTLEDGER_BIN']
    output = IO.popen([bin, *arguments, '--format', 'json', '--project', project(env)], err: File::NULL, &:read)
    $?.success? ? ::JSON.parse(output) : empty
  rescue Errno::ENOENT
    raise if path && !path.empty?

    empty
  end

  # TESTLEDGER_SHARD=I/N: which specs this process runs.
  class Shard
    attr_reader :index, :count, :problem

    # The shard the environment asks for; `nil` when none (or not I/N, which is said).
    def self.from(env)
      text = env['TESTLEDGER_SHARD'].to_s
      return nil if text.empty?

      index, count = text.split('/', 2).map { |part| part =~ /\A\d+\z/ ? part.to_i : 0 }
      return new(index, count, env) if count.to_i.positive? && index.between?(1, count)

      warn "testledger: TESTLEDGER_SHARD is I/N with 1 ≤ I ≤ N, not #{text}: every spec runs"
      nil
    end

    def initialize(index, count, env)
      @index = index
      @count = count
      @planned = {}
      (plan(env)['shards'] || []).each do |shard|
        shard['tests'].each { |id| @planned[id] = shard['index'] }
      end
    rescue StandardError, ScriptError => e
      @planned = {}
      @problem = "could not read the shard plan (#{e.message}): specs are placed by their ids alone"
    end

    # Whether the spec `id` is this shard's: by the plan, else by its id's hash.
    def mine?(id)
      (@planned[id] || (TestLedger.fnv1a(id) % @count) + 1) == @index
    end

    private

    # The plan record wrote (a missing file is a problem, said), else `testledger shard plan`'s
    # from the ledger or the server.
    def plan(env)
      TestLedger.ask(env, 'TESTLEDGER_SHARD_PLAN', ['shard', 'plan', '--shards', @count.to_s], {})
    end
  end

  # One attempt of an `it` being recorded; `details` are its test.start fields but the id and attempt.
  Spec = Struct.new(:id, :site, :started, :log_offset, :activities, :waits, :attempt, :details)
  # One open `describe`.
  Frame = Struct.new(:name, :layer)
  # A `wait_for_change` whose block has not run yet.
  Wait = Struct.new(:name, :timeout, :started, :site)

  # The run being recorded: turns hook calls into Ledger events.
  class Recorder
    def initialize(env = ENV)
      @env = env
      @run = env['TESTLEDGER_RUN'].to_s.empty? ? TestLedger.uuid : env['TESTLEDGER_RUN']
      @frames = []
      @seen = Hash.new(0)
      @activity_count = 0
    end

    def enabled?
      @env['TESTLEDGER_DISABLE'] != '1'
    end

    def context_begin(name, layer)
      @frames.push(Frame.new(name.to_s, layer || @frames.last&.layer))
    end

    def context_end
      @frames.pop
    end

    def context_name
      @frames.last&.name
    end

    def mark_layer(layer)
      @frames.last.layer = layer unless @frames.empty?
    end

    # The id the running context's `description` spec has, before any repeat is numbered.
    def spec_id(description)
      suite = @frames.map(&:name).join(' ')
      suite.empty? ? description.to_s : "#{suite}/#{description}"
    end

    def spec_begin(description, location, layer)
      suite = @frames.map(&:name).join(' ')
      file, line = location
      attempt_start(unique(spec_id(description)), location, 1,
                    suite: suite.empty? ? nil : suite, name: description.to_s, file: file, line: line,
                    layer: layer || @frames.last&.layer)
    end

    # The next attempt of the spec that ended last: the same test, retried.
    def retry_begin
      attempt_start(@last.id, @last.site, @last.attempt + 1, @last.details) if @last
    end

    # A spec quarantined as skipped: recorded, not run.
    def spec_skipped(description, location, layer)
      spec_begin(description, location, layer)
      emit('test.end', spec_fields.merge(outcome: 'skipped', duration: 0, message: 'quarantined'))
      @spec = nil
    end

    def spec_end(error)
      return unless @spec

      duration = TestLedger.monotonic - @spec.started
      @spec.waits.dup.each { |wait| wait_end(wait, false) }
      result = Result.new(error.to_s, Result.log_entry(Bacon::ErrorLog, @spec.log_offset), @spec.site)
      emit('issue', spec_fields.merge(result.issue)) if result.failed?
      emit('test.end', spec_fields.merge(outcome: result.outcome, duration: duration, message: result.message))
      @last = @spec
      @spec = nil
    end

    def activity(name)
      return yield unless @spec

      id = "a#{@activity_count += 1}"
      emit('activity.start', spec_fields.merge(activity: id, parent: @spec.activities.last, name: name.to_s))
      @spec.activities.push(id)
      outcome = 'failed'
      value = yield
      outcome = 'passed'
      value
    ensure
      activity_end(id, outcome) if id
    end

    def capture(verifier, fields)
      return unless @spec

      emit('capture', spec_fields.merge(verifier: verifier.to_s, activity: @spec.activities.last, fields: fields))
    end

    def predicate(fields)
      emit('predicate', spec_fields.merge(activity: @spec.activities.last).merge(fields)) if @spec
    end

    def wait_begin(name, timeout, site)
      Wait.new(name, timeout, TestLedger.monotonic, site).tap { |wait| @spec&.waits&.push(wait) }
    end

    def wait_end(wait, held)
      return unless @spec&.waits&.delete(wait)

      predicate(name: wait.name, expect: 'holds', held: held, attempts: 1,
                waited: TestLedger.monotonic - wait.started, timeout: wait.timeout.to_f,
                file: wait.site[0], line: wait.site[1])
    end

    def finish(failed)
      return unless enabled?

      spec_end('') if @spec
      emit('run.end', outcome: failed ? 'failed' : 'passed')
      sink.close
      sink.problem
    end

    private

    def attempt_start(id, site, attempt, details)
      emit('test.start', { test: id, attempt: attempt }.merge(details))
      @spec = Spec.new(id, site, TestLedger.monotonic, Bacon::ErrorLog.size, [], [], attempt, details)
    end

    def unique(id)
      count = (@seen[id] += 1)
      count > 1 ? "#{id} ##{count}" : id
    end

    def spec_fields
      { test: @spec.id, attempt: @spec.attempt }
    end

    def activity_end(id, outcome)
      @spec&.activities&.delete(id)
      emit('activity.end', activity: id, outcome: outcome)
    end

    def sink
      @sink ||= Sink.new(@env).tap do |sink|
        sink.write(event('run.start', project: TestLedger.project(@env), source: 'bacon'))
      end
    end

    def emit(type, fields)
      TestLedger.safely { sink.write(event(type, fields)) } if enabled?
    end

    def event(type, fields)
      body = { v: 1, type: type, run: @run, at: Time.now.to_f }
      fields.each { |key, value| body[key] = value unless value.nil? }
      JSON.encode(body)
    end
  end

  # What a finished `it` came to, from Bacon's error string and its ErrorLog entry.
  class Result
    KINDS = { 'FAILED' => %w[failed assertion], 'MISSING' => %w[skipped missing] }.freeze

    # The first entry added to ErrorLog since `offset`: [message, backtrace frames].
    def self.log_entry(log, offset)
      lines = log.size < offset ? [] : log[offset..-1].split("\n")
      message = lines.take_while { |line| !line.start_with?("\t") && !line.empty? }
      frames = lines.drop(message.size).take_while { |line| line.start_with?("\t") }
      [message.join("\n"), frames.map { |frame| frame[1..-1] }]
    end

    def initialize(error, entry, site)
      @error = error
      @logged, frames = entry
      @location = locate(frames, site)
    end

    def failed?
      !@error.empty?
    end

    def outcome
      return 'passed' unless failed?

      KINDS.fetch(tag, %w[error error])[0]
    end

    def message
      return nil unless failed?
      return @logged.sub(/\ABacon::Error: /, '') unless @logged.empty?

      detail = @error[/ - (.*)\z/m, 1]
      detail ? @error.sub(/\AERROR: (\S+) - /, '\1: ').sub(/\A[A-Z]+ - /, '') : @error
    end

    def issue
      file, line = @location
      { message: message, file: file, line: line,
        kind: KINDS.fetch(tag, %w[error error])[1] }
    end

    private

    def tag
      @error[/\A[A-Z]+/]
    end

    # An empty spec is located at its `it`; another problem at its first frame in the spec's
    # file, else at its first frame.
    def locate(frames, site)
      return site if tag == 'MISSING' && site[0]

      locations = frames.map { |frame| frame.match(/\A(.+?):(\d+)(?::|\z)/)&.captures }.compact
                        .map { |file, line| [TestLedger.relative(file), line.to_i] }
      locations.find { |file, _| file == site[0] } || locations.first
    end
  end

  # Checks a condition until it reaches what is expected or the timeout passes.
  class Polling
    def initialize(name, expect, timeout, interval, site)
      @name, @expect, @timeout, @interval, @site = name, expect, timeout.to_f, interval.to_f, site
    end

    def run
      start = TestLedger.monotonic
      deadline = start + @timeout
      attempts = 0
      loop do
        attempts += 1
        return finish(true, attempts, start) if (yield ? true : false) == (@expect == 'holds')

        now = TestLedger.monotonic
        return finish(false, attempts, start) if now >= deadline

        TestLedger.pause([@interval, deadline - now].min)
      end
    end

    private

    def finish(held, attempts, start)
      TestLedger.recorder.predicate(name: @name, expect: @expect, held: held, attempts: attempts,
                                    waited: TestLedger.monotonic - start, timeout: @timeout,
                                    interval: @interval, file: @site[0], line: @site[1])
      held
    end
  end

  # A reusable polled condition: `holds` waits for it to become true, `doesnt_hold` for it
  # to become false at some moment (which is not `!holds`).
  class Predicate
    attr_reader :name

    def initialize(name, &condition)
      @name = name.to_s
      @condition = condition
    end

    def negation
      condition = @condition
      Predicate.new("not #{@name}") { !condition.call }
    end

    def holds(timeout: 1, interval: 0.01)
      Polling.new(@name, 'holds', timeout, interval, TestLedger.call_site).run(&@condition)
    end

    def doesnt_hold(timeout: 1, interval: 0.01)
      Polling.new(@name, 'doesntHold', timeout, interval, TestLedger.call_site).run(&@condition)
    end
  end

  # Helpers for specs, included into Bacon::Context.
  module ContextHelpers
    def activity(name, &block)
      TestLedger.recorder.activity(name, &block)
    end

    def capture(verifier, fields = {})
      TestLedger.recorder.capture(verifier, fields)
    end

    def eventually(name = nil, timeout: 1, interval: 0.01, &condition)
      site = TestLedger.call_site
      name ||= "#{File.basename(site[0].to_s)}:#{site[1]}"
      Polling.new(name.to_s, 'holds', timeout, interval, site).run(&condition)
    end

    def predicate(name, &condition)
      Predicate.new(name, &condition)
    end

    def ledger_layer(layer)
      TestLedger.mark_layer(self, layer.to_s)
    end
  end

  class << self
    def project(env)
      env['TESTLEDGER_PROJECT'].to_s.empty? ? File.basename(Dir.pwd) : env['TESTLEDGER_PROJECT']
    end

    def quarantine
      @quarantine ||= Quarantine.new(ENV)
    end

    def shard
      @shard = Shard.from(ENV) unless defined?(@shard)
      @shard
    end

    # FNV-1a (32 bits) of `text`'s bytes: the same number in every process and language.
    def fnv1a(text)
      text.to_s.bytes.reduce(0x811c9dc5) { |hash, byte| ((hash ^ byte) * 0x01000193) & 0xffffffff }
    end

    # Whether the spec `description` of `context` must not run: another shard's (not recorded),
    # or quarantined as skipped (recorded as such).
    def skip?(context, description)
      id = defined?(Bacon::Specification) ? "#{context.name}/#{description}" : recorder.spec_id(description)
      return true if shard && !shard.mine?(id)
      return false if ENV['TESTLEDGER_DISABLE'] == '1'
      return false unless quarantine.skipped?(id)

      (@skipped ||= []) << id
      safely { recorder.spec_skipped(description, location(context, description), layer_of(context)) }
      true
    end

    def recorder
      @recorder ||= Recorder.new
    end

    def monotonic
      defined?(Process::CLOCK_MONOTONIC) ? Process.clock_gettime(Process::CLOCK_MONOTONIC) : Time.now.to_f
    end

    def uuid
      return SecureRandom.uuid if defined?(SecureRandom)

      format('%08x-%04x-4%03x-%04x-%012x', rand(1 << 32), rand(1 << 16), rand(1 << 12),
             0x8000 | rand(1 << 14), rand(1 << 48))
    end

    def pause(seconds)
      return unless seconds.positive?

      defined?(RunLoopHelpers) ? RunLoopHelpers.proper_wait(seconds) : sleep(seconds)
    end

    # The spec's own line that led here: [file, line].
    def call_site
      frame = caller_locations.find { |location| location.absolute_path != FILE && location.path !~ RUNNER_FRAME }
      frame ? [relative(frame.path), frame.lineno] : [nil, nil]
    end

    def relative(path)
      root = "#{Dir.pwd}/"
      path.start_with?(root) ? path[root.size..-1] : path
    end

    # Runs a recording step; a problem in it stops recording, never the specs.
    def safely
      yield unless @broken
    rescue StandardError => e
      @broken = "#{e.class}: #{e.message} (#{e.backtrace&.first})"
      nil
    end

    def context_begin(name)
      safely { recorder.context_begin(name, layer_of(current_context)) }
    end

    def context_end
      safely { recorder.context_end }
    end

    # An attempt of a spec begins: its first, or the next after `requirement_end` asked for a retry.
    def requirement_begin(description)
      @attempt = @retrying ? @attempt + 1 : 1
      @retrying = false
      @log_offset = Bacon::ErrorLog.size
      @counts = Bacon::Counter.values_at(*RETRY_COUNTERS)
      @description = description
      @attempt_started = monotonic
      keep_pristine_spec if retries.positive? || repeats.positive?
      safely do
        next recorder.retry_begin if @attempt > 1

        context = current_context
        recorder.spec_begin(description, location(context, description), layer_of(context))
      end
    end

    # An attempt ended with Bacon's `error` string. Returns what the output shows for it: `error`,
    # or, when the spec is to run again, `error` and the retry, after the attempt is taken out of
    # Bacon's counters and ErrorLog.
    def requirement_end(error)
      clean_error_log(@log_offset.to_i, @description)
      repeating = new_spec?(@description)
      note_new_spec_run(error) if repeating
      again = repeating ? repeat? : retry?(error)
      note_muted(error) unless again
      (@recovered ||= []) << ledger_id(@description) if !repeating && error.to_s.empty? && @attempt.to_i > 1
      safely { recorder.spec_end(error) }
      return error unless again

      discard_attempt
      @retrying = true
      return "#{error}, retrying #{@attempt}/#{retries}" unless repeating

      [error.to_s, "repeating new spec #{@attempt}/#{repeats}"].reject(&:empty?).join(', ')
    end

    # Whether the attempt that just ended is to be followed by another (Bacon 1.2's output runs it).
    def retrying?
      @retrying ? true : false
    end

    # TESTLEDGER_TEST_RETRIES: how many times a failing spec runs again.
    def retries
      @retries ||= count('TESTLEDGER_TEST_RETRIES')
    end

    # TESTLEDGER_REPEAT_NEW: how many more times a new spec runs.
    def repeats
      @repeats ||= count('TESTLEDGER_REPEAT_NEW')
    end

    # The variable's count; 0 unless a positive whole number.
    def count(variable)
      text = ENV[variable].to_s
      text =~ /\A[+-]?\d+\z/ ? [text.to_i, 0].max : 0
    end

    # TESTLEDGER_REPEAT_NEW_BUDGET: the seconds the repeats may take; `nil` for no bound.
    def repeat_budget
      text = ENV['TESTLEDGER_REPEAT_NEW_BUDGET'].to_s
      text =~ /\A\d+(\.\d+)?\z/ ? text.to_f : nil
    end

    # The ids TESTLEDGER_KNOWN_TESTS names; `nil` without the file, when no spec is new.
    def known_tests
      return @known_tests if defined?(@known_tests)

      path = ENV['TESTLEDGER_KNOWN_TESTS'].to_s
      @known_tests = path.empty? ? nil : begin
        require 'json'
        ::JSON.parse(File.read(path)).each_with_object({}) { |id, known| known[id] = true }
      end
    rescue StandardError, ScriptError => e
      @repeat_problem = "could not read the known tests (#{e.message}): no spec was repeated"
      @known_tests = nil
    end

    # Whether the spec `description` is new: repeated whatever its runs end as.
    def new_spec?(description)
      repeats.positive? && known_tests && !known_tests.key?(ledger_id(description)) ? true : false
    end

    # Counts a new spec's run, and the time its repeats take.
    def note_new_spec_run(error)
      @new_specs ||= Hash.new { |specs, id| specs[id] = { runs: 0, failed: 0, last_failed: false } }
      runs = @new_specs[ledger_id(@description)]
      failed = !failure_kind(error).nil?
      runs[:runs] += 1
      runs[:failed] += 1 if failed
      runs[:last_failed] = failed
      @repeat_spent = @repeat_spent.to_f + (monotonic - @attempt_started) if @attempt.to_i > 1
    end

    # Whether a new spec runs again: repeats are left and the budget is not spent.
    def repeat?
      return false unless @attempt.to_i <= repeats
      return false if repeat_budget && @repeat_spent.to_f >= repeat_budget

      !defined?(Bacon::Specification) || queue_pristine_spec
    end

    # Names the new specs that failed a run (and fails the run when their last run passed) and
    # those the budget left unproven.
    def judge_new_specs
      warn "testledger: #{@repeat_problem}" if @repeat_problem
      return unless @new_specs

      @new_specs.each do |id, runs|
        next if runs[:failed].zero?

        kind = runs[:failed] == runs[:runs] ? 'failing' : 'flaky'
        warn "testledger: #{kind} new test: #{id} failed #{runs[:failed]} of #{runs[:runs]} runs: not ready to merge"
        Bacon::Counter[:failed] += 1 unless runs[:last_failed]
      end
      unproven = @new_specs.select { |_, runs| runs[:failed].zero? && runs[:runs] <= repeats }.keys
      return if unproven.empty?

      why = repeat_budget ? "beyond the #{repeat_budget} s budget" : 'could not be run again'
      warn "testledger: new tests unproven (#{why}): #{unproven.join(', ')}"
    end

    def finish
      problem = safely { recorder.finish(Bacon::Counter[:failed] + Bacon::Counter[:errors] > 0) } || @broken
      warn "testledger: recording stopped: #{problem}" if problem
      warn "testledger: #{quarantine.problem}" if quarantine.problem
      warn "testledger: skipped (quarantined): #{@skipped.join(', ')}" if @skipped
      warn "testledger: passed on a retry: #{@recovered.join(', ')}" if @recovered
      warn "testledger: #{shard.problem}" if shard&.problem
      forgive_muted
    end

    def mark_layer(context, layer)
      context.instance_variable_set(:@testledger_layer, layer)
      safely { recorder.mark_layer(layer) }
    end

    # RubyMotion defines specs first and runs them later: remember where each was written.
    def remember_location(context, description, block)
      site = block&.source_location ? [relative(block.source_location[0]), block.source_location[1]] : call_site
      locations = context.instance_variable_get(:@testledger_locations) ||
                  context.instance_variable_set(:@testledger_locations, {})
      locations[description] = site
    end

    # Wraps `owner#name` once: the block gets the receiver, the original bound method, the
    # arguments and the block.
    def wrap(owner, name, &around)
      @wrapped ||= {}
      return if @wrapped[[owner, name]] || !owner.method_defined?(name)

      @wrapped[[owner, name]] = true
      original = owner.instance_method(name)
      owner.send(:remove_method, name) if owner.instance_methods(false).include?(name)
      owner.send(:define_method, name) { |*args, &block| around.call(self, original.bind(self), args, block) }
    end

    def install_hooks
      Hooks.install
    end

    def install_skips
      safely { Hooks.install_skips }
    end

    private

    # The id the quarantine knows the running context's spec `description` by.
    def ledger_id(description)
      defined?(Bacon::Specification) ? "#{current_context&.name}/#{description}" : recorder.spec_id(description)
    end

    def failure_kind(error)
      error.to_s.start_with?('FAILED') ? :failed : (error.to_s.start_with?('ERROR') ? :errors : nil)
    end

    def muted?(description)
      ENV['TESTLEDGER_DISABLE'] != '1' && quarantine.muted?(ledger_id(description))
    end

    # A failure or error of a muted spec, counted apart so that it does not fail the run.
    def note_muted(error)
      kind = failure_kind(error)
      return unless kind && muted?(@description)

      (@muted ||= Hash.new { |hash, key| hash[key] = [] })[kind] << ledger_id(@description)
    end

    # A failed or erroring attempt is run again while retries are left, but for a muted spec's;
    # an empty spec (MISSING) is not a failure. RubyMotion's spec runs again only once its copy
    # is queued.
    def retry?(error)
      failure_kind(error) && @attempt.to_i <= retries && !muted?(@description) &&
        (!defined?(Bacon::Specification) || queue_pristine_spec)
    end

    # Takes the attempt that failed out of what Bacon counts and prints at the end.
    def discard_attempt
      Bacon::ErrorLog[@log_offset..-1] = '' if Bacon::ErrorLog.size > @log_offset
      RETRY_COUNTERS.zip(@counts).each { |key, count| Bacon::Counter[key] = count }
    end

    # RubyMotion runs each spec object once: a copy of it, made before it ran, is the next attempt.
    def keep_pristine_spec
      @pristine = nil
      return unless defined?(Bacon::Specification)

      spec = running_spec
      @pristine = [spec, spec.dup] if spec
    rescue StandardError
      @pristine = nil
    end

    # Puts the copy right after the running spec in its context's list, which the context walks
    # by index: it runs next.
    def queue_pristine_spec
      spec, copy = @pristine
      specs = current_context&.instance_variable_get(:@specifications)
      index = spec && specs.respond_to?(:index) ? specs.index { |other| other.equal?(spec) } : nil
      return false unless index && running_spec.equal?(spec)

      specs.insert(index + 1, copy)
      @pristine = nil
      true
    rescue StandardError
      false
    end

    def running_spec
      context = current_context
      context.respond_to?(:current_specification) ? context.current_specification : nil
    end

    # Takes muted failures out of Bacon's counters after its summary is printed, so that its
    # exit status says whether anything else failed.
    def forgive_muted
      return unless @muted

      @muted.each { |kind, ids| Bacon::Counter[kind] -= ids.size }
      warn "testledger: muted (quarantined) failures: #{@muted.values.flatten.join(', ')}"
    end

    # RubyMotion runs one context at a time and names it; Bacon 1.2 has no such notion.
    def current_context
      Bacon.respond_to?(:current_context) ? Bacon.current_context : nil
    end

    def layer_of(context)
      context&.instance_variable_get(:@testledger_layer)
    end

    # Where the running spec was written; Bacon 1.2 runs `it` as it is called, so the call is
    # on the stack.
    def location(context, description)
      context&.instance_variable_get(:@testledger_locations)&.[](description) || call_site
    end

    # Takes this file's frames out of the spec's ErrorLog entries, so the log reads as
    # SpecDox's; a first frame's `: <context> - <description>` moves to the next frame.
    def clean_error_log(offset, description)
      log = Bacon::ErrorLog
      return if offset >= log.size

      suffix = ": #{current_context&.name || recorder.context_name} - #{description}"
      log[offset..-1] = without_own_frames(log[offset..-1].each_line, suffix).join
    rescue StandardError
      nil
    end

    def without_own_frames(lines, suffix)
      carried = nil
      lines.each_with_object([]) do |line, kept|
        if line.start_with?("\t#{FILE}:")
          carried = suffix if line.chomp.end_with?(suffix)
        else
          line = line.chomp + carried + "\n" if carried && line.start_with?("\t")
          carried = nil if line.start_with?("\t")
          kept << line
        end
      end
    end
  end

  # Wraps the runner's own methods: `it` (where a spec is written), `tests` (a functional,
  # UI-layer context) and RubyMotion's retrying lookups, each lookup recorded as a predicate.
  module Hooks
    def self.install
      Bacon::Context.send(:include, ContextHelpers) unless Bacon::Context < ContextHelpers
      wrap_context
      wrap_functional if defined?(Bacon::Functional::API)
      wrap_run_loop if defined?(RunLoopHelpers)
    end

    def self.wrap_context
      if defined?(Bacon::Specification)
        TestLedger.wrap(Bacon::Context, :it) do |context, original, args, block|
          next if TestLedger.skip?(context, args.first)

          TestLedger.remember_location(context, args.first, block)
          original.call(*args, &block)
        end
      end
      TestLedger.wrap(Bacon::Context, :tests) do |context, original, args, block|
        TestLedger.mark_layer(context, 'ui')
        original.call(*args, &block)
      end
      TestLedger.wrap(Bacon::Context, :wait_for_change) do |_context, original, args, block|
        name = "wait_for_change '#{args[1]}'"
        wait = TestLedger.safely { TestLedger.recorder.wait_begin(name, args[2] || 1, TestLedger.call_site) }
        original.call(*args) do |*values|
          TestLedger.safely { TestLedger.recorder.wait_end(wait, true) }
          block&.call(*values)
        end
      end
    end

    # Bacon 1.2 runs `it` as it is called: wrapped only when a spec is to be skipped, since the
    # wrapper is a frame in every backtrace Bacon prints.
    def self.install_skips
      return if defined?(Bacon::Specification) || !(TestLedger.shard || TestLedger.quarantine.skips_any?)

      TestLedger.wrap(Bacon::Context, :it) do |context, original, args, block|
        next if TestLedger.skip?(context, args.first)

        original.call(*args, &block)
      end
    end

    def self.wrap_functional
      TestLedger.wrap(Bacon::Functional::API, :view) do |_context, original, args, block|
        label = args.first
        next original.call(*args, &block) if defined?(UIView) && label.is_a?(UIView)

        Lookup.new("view '#{label}'").run { original.call(*args, &block) }
      end
      TestLedger.wrap(Bacon::Functional::API, :views) do |_context, original, args, block|
        Lookup.new("views #{args.first}").run { original.call(*args, &block) }
      end
    end

    def self.wrap_run_loop
      TestLedger.wrap(RunLoopHelpers.singleton_class, :wait_till) do |_helpers, original, args, block|
        original.call(*args) do |*values|
          Lookup.attempt
          block.call(*values)
        end
      end
    end
  end

  # One retrying lookup (`view`, `views`): found or not, how long, how many tries.
  class Lookup
    def self.attempt
      @current.attempts += 1 if @current
    end

    class << self
      attr_accessor :current
    end

    attr_accessor :attempts

    def initialize(name)
      @name = name
      @attempts = 0
      @site = TestLedger.call_site
    end

    def run
      outer = Lookup.current
      Lookup.current = self
      started = TestLedger.monotonic
      held = false
      found = yield
      held = !(found.nil? || (found.respond_to?(:empty?) && found.empty?))
      found
    ensure
      Lookup.current = outer
      record(held, TestLedger.monotonic - started) if started
    end

    private

    def record(held, waited)
      TestLedger.safely do
        TestLedger.recorder.predicate(name: @name, expect: 'holds', held: held, attempts: [@attempts, 1].max,
                                      waited: waited, timeout: timeout, file: @site[0], line: @site[1])
      end
    end

    # RubyMotion's lookups wait `Bacon::Functional.default_timeout`, 3 seconds unless set.
    def timeout
      functional = defined?(Bacon::Functional) ? Bacon::Functional : nil
      (functional.respond_to?(:default_timeout) && functional.default_timeout || 3).to_f
    end
  end
end

module Bacon
  # SpecDoxOutput, recording as it prints. Both hook styles: Bacon 1.2's block hooks and
  # RubyMotion's begin/end hooks; each calls SpecDoxOutput's own.
  module TestLedgerOutput
    include SpecDoxOutput

    def handle_specification(name)
      TestLedger.install_hooks
      TestLedger.install_skips
      TestLedger.context_begin(name)
      super(name) { yield }
    ensure
      TestLedger.context_end
    end

    # Bacon 1.2's block runs the spec with its before and after blocks: a retry runs it again.
    def handle_requirement(description)
      TestLedger.requirement_begin(description)
      super(description) do
        error = yield
        shown = TestLedger.requirement_end(error)
        while TestLedger.retrying?
          puts " [#{shown}]"
          print "#{spaces}  - #{description}"
          TestLedger.requirement_begin(description)
          error = yield
          shown = TestLedger.requirement_end(error)
        end
        error
      end
    end

    def handle_specification_begin(name)
      TestLedger.install_hooks
      TestLedger.install_skips
      TestLedger.context_begin(name)
      super
    end

    def handle_specification_end
      super
      TestLedger.context_end
    end

    def handle_requirement_begin(description)
      TestLedger.requirement_begin(description)
      super
    end

    def handle_requirement_end(error)
      super(TestLedger.requirement_end(error))
    end

    # A new spec that failed a run counts as a failure in the summary Bacon prints.
    def handle_summary
      TestLedger.judge_new_specs
      super
      TestLedger.finish
    end
  end

  Outputs['testledger'] = TestLedgerOutput if defined?(Outputs)
end

TestLedger.install_hooks

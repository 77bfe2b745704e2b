# frozen_string_literal: true

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
# set), and a failure in any run fails the run, naming the spec as a flaky new test. And for
# `testledger verify`: with TESTLEDGER_VERIFY=N and TESTLEDGER_VERIFY_TESTS (a JSON array of ids),
# only those specs run (the others are neither run nor recorded), each up to N times until it
# fails, every run an attempt.
#
# Inside specs: `activity(name) { }`, `capture(verifier, fields)`, `eventually { }` and
# `predicate(name) { }.holds` / `.doesnt_hold`; `ledger_layer :ui` tags a context.
# Test ids are `<context path>/<requirement>`, the context path being the names of the
# open `describe`s joined by spaces: the same id `testledger` reads from SpecDox output.
#
# One file, so that a project can copy it; each job has its own module: Environment and Ledger
# (what the run is asked to do), Journal (the events), Runner (what the running Bacon knows),
# Attempts, Retries, Repeats and Requeue (running a spec again), Shards, Quarantine,
# Backtraces, the helpers inside specs, and Install (the hooks into Bacon).

require 'bacon' unless defined?(Bacon::Context)
# Each line goes out as it is printed, so that `| testledger format` can time each spec by when
# its line arrives (Ruby buffers a pipe otherwise).
$stdout.sync = true
begin
  require 'securerandom'
rescue LoadError
  nil # RubyMotion: see Journal::Stream.new_run_id
end

# Records a Bacon run into TestLedger. Its own methods are the calls Bacon::TestLedgerOutput makes.
module TestLedger
  FILE = File.expand_path(__FILE__)
  RUNNER_FRAME = %r{(\A|/)(mac_)?bacon\.rb\z|/motion/spec(/helpers/ui)?\.rb\z|bin/(mac)?bacon\z}.freeze

  class << self
    def install_hooks
      Install.hooks
    end

    def install_skips
      Journal.safely { Install.skips }
    end

    def context_begin(name)
      Journal.context_begin(name)
    end

    def context_end
      Journal.context_end
    end

    def requirement_begin(description)
      Attempts.start(description)
    end

    # Returns what the output shows for the attempt: Bacon's `error`, or it and why it runs again.
    def requirement_end(error)
      Attempts.finish(error)
    end

    # Whether the attempt that just ended is to be followed by another (Bacon 1.2's output runs it).
    def retrying?
      Attempts.again?
    end

    def judge_new_specs
      Repeats.judge
    end

    # What stderr says once Bacon's summary is printed; the order of these lines is kept.
    def finish
      Journal.finish
      Quarantine.report
      Retries.report
      Shards.report
      Quarantine.forgive_muted
    end
  end

  # What the environment asks of the run.
  module Environment
    class << self
      def disabled?(env = ENV)
        env['TESTLEDGER_DISABLE'] == '1'
      end

      def project(env)
        env['TESTLEDGER_PROJECT'].to_s.empty? ? File.basename(Dir.pwd) : env['TESTLEDGER_PROJECT']
      end

      # The variable's count; 0 unless a positive whole number.
      def count(variable)
        text = ENV[variable].to_s
        text =~ /\A[+-]?\d+\z/ ? [text.to_i, 0].max : 0
      end
    end
  end

  # What the ledger knows that the run needs: the quarantine list and the shard plan.
  module Ledger
    class << self
      # The JSON in the file `variable` names, else `testledger ARGUMENTS --format json` for the
      # project's; `empty` where there is nothing to ask: a run written only to a file, RubyMotion's
      # specs in the simulator (which cannot start `testledger`), no binary (the recording's own
      # warning says so). With TESTLEDGER_URL, `testledger` asks the server.
      def ask(env, variable, arguments, empty)
        require 'json'
        path = env[variable].to_s
        return ::JSON.parse(File.read(path)) unless path.empty?
        return empty if Environment.disabled?(env) || env['TESTLEDGER_EVENTS'].to_s != '' || Runner.motion?

        answer(env, arguments, empty)
      end

      private

      def answer(env, arguments, empty)
        bin = env['TESTLEDGER_BIN'].to_s.empty? ? 'testledger' : env['TESTLEDGER_BIN']
        command = [bin, *arguments, '--format', 'json', '--project', Environment.project(env)]
        output = IO.popen(command, err: File::NULL, &:read)
        $?.success? ? ::JSON.parse(output) : empty
      rescue Errno::ENOENT
        empty
      end
    end
  end

  # Time as the specs spend it.
  module Clock
    class << self
      def monotonic
        defined?(Process::CLOCK_MONOTONIC) ? Process.clock_gettime(Process::CLOCK_MONOTONIC) : Time.now.to_f
      end

      # RubyMotion's specs wait by turning the run loop, not by blocking it.
      def pause(seconds)
        return unless seconds.positive?

        defined?(RunLoopHelpers) ? RunLoopHelpers.proper_wait(seconds) : sleep(seconds)
      end

      # The CPU seconds this process has used: wall time far above it is a starved spec.
      def cpu
        Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
      end

      # The machine's load average over the last minute, read at most once a second; nil where
      # the system does not give it.
      def load_average
        now = monotonic
        return @load if @load_read && now - @load_read < 1

        @load_read = now
        @load = File.read('/proc/loadavg').split.first.to_f
      rescue SystemCallError
        @load = nil
      end
    end
  end

  # Where in the specs something was written: [file relative to the working directory, line].
  module Sites
    class << self
      # The spec's own line that led here.
      def call_site
        frame = caller_locations.find { |location| location.absolute_path != FILE && location.path !~ RUNNER_FRAME }
        frame ? [relative(frame.path), frame.lineno] : [nil, nil]
      end

      def of_block(block)
        location = block&.source_location
        location ? [relative(location[0]), location[1]] : call_site
      end

      def relative(path)
        root = "#{Dir.pwd}/"
        path.start_with?(root) ? path[root.size..-1] : path
      end
    end
  end

  # The run's Ledger events: one recorder turns the runner's hook calls into them.
  module Journal
    class << self
      def recorder
        @recorder ||= Recorder.new(contexts)
      end

      def contexts
        @contexts ||= Contexts.new
      end

      # Runs a recording step; a problem in it stops recording, never the specs.
      def safely
        yield unless @broken
      rescue StandardError => e
        @broken = "#{e.class}: #{e.message} (#{e.backtrace&.first})"
        nil
      end

      def context_begin(name)
        safely { contexts.open(name, Runner.layer_of(Runner.current_context)) }
      end

      def context_end
        safely { contexts.close }
      end

      def finish
        problem = safely { recorder.finish((Bacon::Counter[:failed] + Bacon::Counter[:errors]).positive?) } || @broken
        warn "testledger: recording stopped: #{problem}" if problem
      end
    end

    # Encodes the Ruby values events carry as JSON text.
    module JSON
      ESCAPES = { '"' => '\"', '\\' => '\\\\', "\n" => '\n', "\r" => '\r', "\t" => '\t' }.freeze

      def self.encode(value)
        case value
        when Hash then "{#{value.map { |key, item| "#{string(key.to_s)}:#{encode(item)}" }.join(',')}}"
        when Array then "[#{value.map { |item| encode(item) }.join(',')}]"
        else scalar(value)
        end
      end

      def self.scalar(value)
        case value
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
        @io = open_stream(env)
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
        note_exit($?) if @command
      rescue SystemCallError, IOError => e
        @problem ||= "could not finish writing events (#{e.message})"
      end

      private

      def open_stream(env)
        path = env['TESTLEDGER_EVENTS']
        return File.open(path, 'w').tap { |file| file.sync = true } if path && !path.empty?

        @command = command(env).join(' ')
        IO.popen(command(env), 'w', out: File::NULL).tap { |io| io.sync = true }
      end

      def note_exit(status)
        @problem ||= "#{@command} exited with status #{status.exitstatus}" if status && !status.success?
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

    # The run's events in their envelope, into the sink, which opens with run.start at the first.
    class Stream
      def self.new_run_id
        return SecureRandom.uuid if defined?(SecureRandom)

        format('%08x-%04x-4%03x-%04x-%012x', rand(1 << 32), rand(1 << 16), rand(1 << 12),
               0x8000 | rand(1 << 14), rand(1 << 48))
      end

      def initialize(env)
        @env = env
        @run = env['TESTLEDGER_RUN'].to_s.empty? ? Stream.new_run_id : env['TESTLEDGER_RUN']
      end

      def enabled?
        !Environment.disabled?(@env)
      end

      def emit(type, fields)
        Journal.safely { sink.write(event(type, fields)) } if enabled?
      end

      # Returns what went wrong with the sink, if anything.
      def close
        sink.close
        sink.problem
      end

      private

      def sink
        @sink ||= Sink.new(@env).tap do |sink|
          sink.write(event('run.start', project: Environment.project(@env), source: 'bacon'))
        end
      end

      def event(type, fields)
        body = { v: 1, type: type, run: @run, at: Time.now.to_f }
        fields.each { |key, value| body[key] = value unless value.nil? }
        JSON.encode(body)
      end
    end

    # The open `describe`s, outermost first.
    class Contexts
      # One open `describe`.
      Frame = Struct.new(:name, :layer)

      def initialize
        @frames = []
      end

      def open(name, layer)
        @frames.push(Frame.new(name.to_s, layer || self.layer))
      end

      def close
        @frames.pop
      end

      def name
        @frames.last&.name
      end

      def layer
        @frames.last&.layer
      end

      def mark_layer(layer)
        @frames.last.layer = layer unless @frames.empty?
      end

      # The context path: the names joined by spaces.
      def path
        @frames.map(&:name).join(' ')
      end

      # The id the running context's `description` spec has, before any repeat is numbered.
      def spec_id(description)
        path.empty? ? description.to_s : "#{path}/#{description}"
      end
    end

    # One attempt of an `it` being recorded; `details` are its test.start fields but the id and attempt.
    Spec = Struct.new(:id, :site, :started, :log_offset, :activities, :waits, :attempt, :details, :cpu)
    # A `wait_for_change` whose block has not run yet.
    Wait = Struct.new(:name, :timeout, :started, :site)

    # The run being recorded: turns hook calls into Ledger events.
    class Recorder
      def initialize(contexts, env = ENV)
        @contexts = contexts
        @stream = Stream.new(env)
        @seen = Hash.new(0)
        @activity_count = 0
      end

      def spec_begin(description, location, layer)
        suite = @contexts.path
        file, line = location
        attempt_start(unique(@contexts.spec_id(description)), location, 1,
                      suite: suite.empty? ? nil : suite, name: description.to_s, file: file, line: line,
                      layer: layer || @contexts.layer)
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

        duration = Clock.monotonic - @spec.started
        end_waits
        result = result_of(error)
        emit('issue', spec_fields.merge(result.issue)) if result.failed?
        emit('test.end', spec_fields.merge(outcome: result.outcome, duration: duration, message: result.message,
                                           **machine_end))
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
        Wait.new(name, timeout, Clock.monotonic, site).tap { |wait| @spec&.waits&.push(wait) }
      end

      def wait_end(wait, held)
        return unless @spec&.waits&.delete(wait)

        predicate(name: wait.name, expect: 'holds', held: held, attempts: 1,
                  waited: Clock.monotonic - wait.started, timeout: wait.timeout.to_f,
                  file: wait.site[0], line: wait.site[1])
      end

      # Ends the run; returns what stopped the recording, if anything.
      def finish(failed)
        return unless @stream.enabled?

        spec_end('') if @spec
        emit('run.end', outcome: failed ? 'failed' : 'passed')
        @stream.close
      end

      private

      def attempt_start(id, site, attempt, details)
        machine = { process: Process.pid, load: Clock.load_average }
        emit('test.start', { test: id, attempt: attempt }.merge(machine, details))
        @spec = Spec.new(id, site, Clock.monotonic, Bacon::ErrorLog.size, [], [], attempt, details, Clock.cpu)
      end

      # The waits whose block never ran did not see the change.
      def end_waits
        @spec.waits.dup.each { |wait| wait_end(wait, false) }
      end

      def result_of(error)
        Result.new(error.to_s, Result.log_entry(Bacon::ErrorLog, @spec.log_offset), @spec.site)
      end

      def unique(id)
        count = (@seen[id] += 1)
        count > 1 ? "#{id} ##{count}" : id
      end

      def spec_fields
        { test: @spec.id, attempt: @spec.attempt }
      end

      # The machine as the spec ends: its load, and the CPU time the spec used.
      def machine_end
        { load: Clock.load_average, cpu: Clock.cpu - @spec.cpu }
      end

      def activity_end(id, outcome)
        @spec&.activities&.delete(id)
        emit('activity.end', activity: id, outcome: outcome)
      end

      def emit(type, fields)
        @stream.emit(type, fields)
      end
    end

    # What a finished `it` came to, from Bacon's error string and its ErrorLog entry.
    class Result
      KINDS = { 'FAILED' => %w[failed assertion], 'MISSING' => %w[skipped missing] }.freeze

      # The first entry added to ErrorLog since `offset`: [message, backtrace frames].
      def self.log_entry(log, offset)
        lines = lines_since(log, offset)
        message = lines.take_while { |line| !line.start_with?("\t") && !line.empty? }
        frames = lines.drop(message.size).take_while { |line| line.start_with?("\t") }
        [message.join("\n"), frames.map { |frame| frame[1..-1] }]
      end

      def self.lines_since(log, offset)
        log.size < offset ? [] : log[offset..-1].split("\n")
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

        locations = frame_locations(frames)
        locations.find { |file, _| file == site[0] } || locations.first
      end

      def frame_locations(frames)
        frames.map { |frame| frame.match(/\A(.+?):(\d+)(?::|\z)/)&.captures }.compact
              .map { |file, line| [Sites.relative(file), line.to_i] }
      end
    end
  end

  # The Bacon running the specs, Bacon 1.2 or RubyMotion's, and what TestLedger notes on its contexts.
  module Runner
    class << self
      # RubyMotion's Bacon defines every spec first, as a Bacon::Specification, and runs it later.
      def motion?
        defined?(Bacon::Specification) ? true : false
      end

      # RubyMotion runs one context at a time and names it; Bacon 1.2 has no such notion.
      def current_context
        Bacon.respond_to?(:current_context) ? Bacon.current_context : nil
      end

      def running_spec
        context = current_context
        context.respond_to?(:current_specification) ? context.current_specification : nil
      end

      # The id the ledger knows the spec `description` of `context` by: under RubyMotion each
      # context runs alone, under its own name.
      def spec_id(description, context = current_context)
        motion? ? "#{context&.name}/#{description}" : Journal.contexts.spec_id(description)
      end

      def layer_of(context)
        context&.instance_variable_get(:@testledger_layer)
      end

      def mark_layer(context, layer)
        context.instance_variable_set(:@testledger_layer, layer)
        Journal.safely { Journal.contexts.mark_layer(layer) }
      end

      # Where the running spec was written; Bacon 1.2 runs `it` as it is called, so the call is
      # on the stack.
      def location(context, description)
        context&.instance_variable_get(:@testledger_locations)&.[](description) || Sites.call_site
      end

      # RubyMotion defines specs first and runs them later: remember where each was written.
      def remember_location(context, description, block)
        locations = context.instance_variable_get(:@testledger_locations) ||
                    context.instance_variable_set(:@testledger_locations, {})
        locations[description] = Sites.of_block(block)
      end
    end
  end

  # One run of an `it`: its first, a retry or a repeat. Remembers what Bacon had counted and
  # logged before it, so that an attempt followed by another can be taken back out.
  module Attempts
    # What an attempt adds to Bacon's counters.
    COUNTERS = %i[requirements failed errors missing].freeze

    class << self
      # An attempt of a spec begins: its first, or the next after `finish` asked for another.
      def start(description)
        @number = @again ? @number + 1 : 1
        @again = false
        @log_offset = Bacon::ErrorLog.size
        @counts = Bacon::Counter.values_at(*COUNTERS)
        @description = description
        @started = Clock.monotonic
        Requeue.keep_copy if Retries.count.positive? || Repeats.count.positive? || Verification.active?
        Journal.safely { record_start(description) }
      end

      # An attempt ended with Bacon's `error` string. Returns what the output shows for it: `error`,
      # or, when the spec is to run again, `error` and why, once the attempt is taken out of
      # Bacon's counters and ErrorLog. A new spec repeats (Repeats), another retries (Retries):
      # the two answer the same calls.
      def finish(error)
        Backtraces.clean(@log_offset.to_i, @description)
        id = Runner.spec_id(@description)
        rerun = rerun_of(id)
        again = rerun.attempt_ended(id, error, @number.to_i, @started)
        Quarantine.note_failure(id, failure_kind(error)) unless again
        Journal.safely { Journal.recorder.spec_end(error) }
        return error unless again

        discard
        @again = true
        rerun.shown(error, @number)
      end

      def again?
        @again ? true : false
      end

      # What decides whether the spec `id` runs again: a verification, a new spec's repeats, or
      # the retries.
      def rerun_of(id)
        return Verification if Verification.active?

        Repeats.new_spec?(id) ? Repeats : Retries
      end

      # :failed or :errors, the Bacon counter the error went to; nil for a pass or an empty spec.
      def failure_kind(error)
        return :failed if error.to_s.start_with?('FAILED')

        error.to_s.start_with?('ERROR') ? :errors : nil
      end

      private

      def record_start(description)
        return Journal.recorder.retry_begin if @number > 1

        context = Runner.current_context
        Journal.recorder.spec_begin(description, Runner.location(context, description), Runner.layer_of(context))
      end

      # Takes the attempt out of what Bacon counts and prints at the end.
      def discard
        Bacon::ErrorLog[@log_offset..-1] = '' if Bacon::ErrorLog.size > @log_offset
        COUNTERS.zip(@counts).each { |key, count| Bacon::Counter[key] = count }
      end
    end
  end

  # TESTLEDGER_TEST_RETRIES=N: a failing spec runs again, up to N times, until it passes.
  module Retries
    class << self
      def count
        @count ||= Environment.count('TESTLEDGER_TEST_RETRIES')
      end

      # Notes the attempt that ended; returns whether the spec runs again. A failed or erroring
      # attempt does while retries are left, but a muted spec's; an empty spec (MISSING) is not
      # a failure.
      def attempt_ended(id, error, attempt, _started)
        (@recovered ||= []) << id if error.to_s.empty? && attempt > 1
        Attempts.failure_kind(error) && attempt <= count && !Quarantine.muted?(id) && Requeue.copy_queued?
      end

      def shown(error, attempt)
        "#{error}, retrying #{attempt}/#{count}"
      end

      def report
        warn "testledger: passed on a retry: #{@recovered.join(', ')}" if @recovered
      end
    end
  end

  # TESTLEDGER_VERIFY=N and TESTLEDGER_VERIFY_TESTS (a file of a JSON array of ids), for
  # `testledger verify`: only the named specs run, each up to N times until it fails.
  module Verification
    class << self
      def count
        @count ||= Environment.count('TESTLEDGER_VERIFY')
      end

      def active?
        count.positive? && !tests.nil?
      end

      # Whether the spec `id` runs: every spec does unless a verification names others.
      def mine?(id)
        !active? || tests.key?(id)
      end

      # A pass runs again until the N runs are made; a failure ends the spec's runs.
      def attempt_ended(_id, error, attempt, _started)
        Attempts.failure_kind(error).nil? && attempt < count && Requeue.copy_queued?
      end

      def shown(error, attempt)
        [error.to_s, "verifying #{attempt}/#{count}"].reject(&:empty?).join(', ')
      end

      private

      # The ids named, as a hash; `nil` without them (which is said), when nothing is verified.
      def tests
        return @tests if defined?(@tests)

        path = ENV['TESTLEDGER_VERIFY_TESTS'].to_s
        @tests = nil
        return @tests if path.empty? || count.zero?

        require 'json'
        @tests = ::JSON.parse(File.read(path)).each_with_object({}) { |id, named| named[id] = true }
      rescue StandardError, ScriptError => e
        warn "testledger: could not read TESTLEDGER_VERIFY_TESTS (#{e.message}): nothing is verified"
        @tests = nil
      end
    end
  end

  # TESTLEDGER_REPEAT_NEW=N: a spec TESTLEDGER_KNOWN_TESTS does not name is new, and runs N more
  # times whatever each run ends as, within TESTLEDGER_REPEAT_NEW_BUDGET seconds.
  module Repeats
    class << self
      def count
        @count ||= Environment.count('TESTLEDGER_REPEAT_NEW')
      end

      # The seconds the repeats may take; `nil` for no bound.
      def budget
        text = ENV['TESTLEDGER_REPEAT_NEW_BUDGET'].to_s
        text =~ /\A\d+(\.\d+)?\z/ ? text.to_f : nil
      end

      def new_spec?(id)
        count.positive? && known_tests && !known_tests.key?(id) ? true : false
      end

      # Counts a new spec's run and the time its repeats take; returns whether it runs again.
      def attempt_ended(id, error, attempt, started)
        runs = runs_of(id)
        failed = !Attempts.failure_kind(error).nil?
        runs[:runs] += 1
        runs[:failed] += 1 if failed
        runs[:last_failed] = failed
        @spent = @spent.to_f + (Clock.monotonic - started) if attempt > 1
        again?(attempt)
      end

      def shown(error, attempt)
        [error.to_s, "repeating new spec #{attempt}/#{count}"].reject(&:empty?).join(', ')
      end

      # Names the new specs that failed a run (and fails the run when their last run passed) and
      # those the budget left unproven.
      def judge
        warn "testledger: #{@problem}" if @problem
        return unless @new_specs

        @new_specs.each { |id, runs| judge_spec(id, runs) }
        report_unproven
      end

      private

      # The ids TESTLEDGER_KNOWN_TESTS names; `nil` without the file, when no spec is new.
      def known_tests
        return @known_tests if defined?(@known_tests)

        @known_tests = read_known_tests(ENV['TESTLEDGER_KNOWN_TESTS'].to_s)
      rescue StandardError, ScriptError => e
        @problem = "could not read the known tests (#{e.message}): no spec was repeated"
        @known_tests = nil
      end

      def read_known_tests(path)
        return nil if path.empty?

        require 'json'
        ::JSON.parse(File.read(path)).each_with_object({}) { |id, known| known[id] = true }
      end

      def runs_of(id)
        @new_specs ||= Hash.new { |specs, key| specs[key] = { runs: 0, failed: 0, last_failed: false } }
        @new_specs[id]
      end

      def again?(attempt)
        return false unless attempt <= count
        return false if budget && @spent.to_f >= budget

        Requeue.copy_queued?
      end

      # Bacon counted the last run only: a spec whose last run passed is counted a failure here.
      def judge_spec(id, runs)
        return if runs[:failed].zero?

        kind = runs[:failed] == runs[:runs] ? 'failing' : 'flaky'
        warn "testledger: #{kind} new test: #{id} failed #{runs[:failed]} of #{runs[:runs]} runs: not ready to merge"
        Bacon::Counter[:failed] += 1 unless runs[:last_failed]
      end

      def report_unproven
        unproven = @new_specs.select { |_, runs| runs[:failed].zero? && runs[:runs] <= count }.keys
        return if unproven.empty?

        why = budget ? "beyond the #{budget} s budget" : 'could not be run again'
        warn "testledger: new tests unproven (#{why}): #{unproven.join(', ')}"
      end
    end
  end

  # RubyMotion runs each spec object once: a copy of it, made before it ran, is the next attempt.
  module Requeue
    class << self
      def keep_copy
        @pristine = nil
        return unless Runner.motion?

        spec = Runner.running_spec
        @pristine = [spec, spec.dup] if spec
      rescue StandardError
        @pristine = nil
      end

      # Whether the next attempt will run: Bacon 1.2's output runs it itself; RubyMotion's
      # once the copy is queued.
      def copy_queued?
        !Runner.motion? || queue_copy
      end

      private

      # Puts the copy right after the running spec in its context's list, which the context walks
      # by index: it runs next.
      def queue_copy
        spec, copy = @pristine
        specs = Runner.current_context&.instance_variable_get(:@specifications)
        index = spec && specs.respond_to?(:index) ? specs.index { |other| other.equal?(spec) } : nil
        return false unless index && Runner.running_spec.equal?(spec)

        specs.insert(index + 1, copy)
        @pristine = nil
        true
      rescue StandardError
        false
      end
    end
  end

  # TESTLEDGER_SHARD=I/N: this machine runs only its share of the specs.
  module Shards
    # Shard I of N: the specs the plan places in it, and those its ids hash to.
    class Share
      attr_reader :index, :count, :problem

      # The share the environment asks for; `nil` when none (or not I/N, which is said).
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
      def include?(id)
        (@planned[id] || ((Shards.fnv1a(id) % @count) + 1)) == @index
      end

      private

      # The plan record wrote (a missing file is a problem, said), else `testledger shard plan`'s
      # from the ledger or the server.
      def plan(env)
        Ledger.ask(env, 'TESTLEDGER_SHARD_PLAN', ['shard', 'plan', '--shards', @count.to_s], {})
      end
    end

    class << self
      def share
        @share = Share.from(ENV) unless defined?(@share)
        @share
      end

      def mine?(id)
        share.nil? || share.include?(id)
      end

      # FNV-1a (32 bits) of `text`'s bytes: the same number in every process and language.
      def fnv1a(text)
        text.to_s.bytes.reduce(0x811c9dc5) { |hash, byte| ((hash ^ byte) * 0x01000193) & 0xffffffff }
      end

      def report
        warn "testledger: #{share.problem}" if share&.problem
      end
    end
  end

  # The tests in quarantine for this run: which to skip, which failures not to count.
  module Quarantine
    # `testledger quarantine list --format json`'s entries, or the file TESTLEDGER_QUARANTINE names.
    class List
      attr_reader :problem

      def initialize(env)
        @skipped = {}
        @muted = {}
        Ledger.ask(env, 'TESTLEDGER_QUARANTINE', %w[quarantine list], []).each do |entry|
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
    end

    class << self
      def list
        @list ||= List.new(ENV)
      end

      # Whether the spec `id` is quarantined as skipped; each is named at the end.
      def skip?(id)
        return false if Environment.disabled? || !list.skipped?(id)

        (@skipped ||= []) << id
        true
      end

      def skips_any?
        list.skips_any?
      end

      def muted?(id)
        !Environment.disabled? && list.muted?(id)
      end

      # A failure or error of a muted spec, counted apart so that it does not fail the run.
      def note_failure(id, kind)
        return unless kind && muted?(id)

        (@muted ||= Hash.new { |hash, key| hash[key] = [] })[kind] << id
      end

      def report
        warn "testledger: #{list.problem}" if list.problem
        warn "testledger: skipped (quarantined): #{@skipped.join(', ')}" if @skipped
      end

      # Takes muted failures out of Bacon's counters after its summary is printed, so that its
      # exit status says whether anything else failed.
      def forgive_muted
        return unless @muted

        @muted.each { |kind, ids| Bacon::Counter[kind] -= ids.size }
        warn "testledger: muted (quarantined) failures: #{@muted.values.flatten.join(', ')}"
      end
    end
  end

  # Bacon's ErrorLog as SpecDox prints it, without this file's frames.
  module Backtraces
    class << self
      # Takes this file's frames out of the spec's ErrorLog entries since `offset`; a first
      # frame's `: <context> - <description>` moves to the next frame.
      def clean(offset, description)
        log = Bacon::ErrorLog
        return if offset >= log.size

        suffix = ": #{Runner.current_context&.name || Journal.contexts.name} - #{description}"
        log[offset..-1] = without_own_frames(log[offset..-1].each_line, suffix).join
      rescue StandardError
        nil
      end

      private

      def without_own_frames(lines, suffix)
        carried = nil
        lines.each_with_object([]) do |line, kept|
          if line.start_with?("\t#{FILE}:")
            carried = suffix if line.chomp.end_with?(suffix)
          else
            line = "#{line.chomp}#{carried}\n" if carried && line.start_with?("\t")
            carried = nil if line.start_with?("\t")
            kept << line
          end
        end
      end
    end
  end

  # Checks a condition until it reaches what is expected or the timeout passes.
  class Polling
    def initialize(name, expect, timeout, interval, site)
      @name = name
      @expect = expect
      @timeout = timeout.to_f
      @interval = interval.to_f
      @site = site
    end

    def run
      start = Clock.monotonic
      deadline = start + @timeout
      attempts = 0
      loop do
        attempts += 1
        return finish(true, attempts, start) if (yield ? true : false) == (@expect == 'holds')

        now = Clock.monotonic
        return finish(false, attempts, start) if now >= deadline

        Clock.pause([@interval, deadline - now].min)
      end
    end

    private

    def finish(held, attempts, start)
      Journal.recorder.predicate(name: @name, expect: @expect, held: held, attempts: attempts,
                                 waited: Clock.monotonic - start, timeout: @timeout,
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
      Polling.new(@name, 'holds', timeout, interval, Sites.call_site).run(&@condition)
    end

    def doesnt_hold(timeout: 1, interval: 0.01)
      Polling.new(@name, 'doesntHold', timeout, interval, Sites.call_site).run(&@condition)
    end
  end

  # Helpers for specs, included into Bacon::Context.
  module ContextHelpers
    def activity(name, &block)
      Journal.recorder.activity(name, &block)
    end

    def capture(verifier, fields = {})
      Journal.recorder.capture(verifier, fields)
    end

    def eventually(name = nil, timeout: 1, interval: 0.01, &condition)
      site = Sites.call_site
      name ||= "#{File.basename(site[0].to_s)}:#{site[1]}"
      Polling.new(name.to_s, 'holds', timeout, interval, site).run(&condition)
    end

    def predicate(name, &condition)
      Predicate.new(name, &condition)
    end

    def ledger_layer(layer)
      Runner.mark_layer(self, layer.to_s)
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
      @site = Sites.call_site
    end

    def run
      outer = Lookup.current
      Lookup.current = self
      started = Clock.monotonic
      held = false
      found = yield
      held = !(found.nil? || (found.respond_to?(:empty?) && found.empty?))
      found
    ensure
      Lookup.current = outer
      record(held, Clock.monotonic - started) if started
    end

    private

    def record(held, waited)
      Journal.safely do
        Journal.recorder.predicate(name: @name, expect: 'holds', held: held, attempts: [@attempts, 1].max,
                                   waited: waited, timeout: timeout, file: @site[0], line: @site[1])
      end
    end

    # RubyMotion's lookups wait `Bacon::Functional.default_timeout`, 3 seconds unless set.
    def timeout
      functional = defined?(Bacon::Functional) ? Bacon::Functional : nil
      ((functional.respond_to?(:default_timeout) && functional.default_timeout) || 3).to_f
    end
  end

  # Hooks into the runner: the helpers into Bacon::Context, and wrappers around the runner's
  # own methods: `it` (where a spec is written, and whether it runs), `tests` (a functional,
  # UI-layer context) and RubyMotion's retrying lookups, each lookup recorded as a predicate.
  module Install
    class << self
      def hooks
        # `send`: RubyMotion's runtime predates Ruby 2.1, where Module#include became public.
        Bacon::Context.send(:include, ContextHelpers) unless Bacon::Context < ContextHelpers # rubocop:disable Lint/SendWithMixinArgument
        wrap_motion_it if Runner.motion?
        wrap_tests
        wrap_wait_for_change
        wrap_functional if defined?(Bacon::Functional::API)
        wrap_run_loop if defined?(RunLoopHelpers)
      end

      # Bacon 1.2 runs `it` as it is called: wrapped only when a spec is to be skipped, since the
      # wrapper is a frame in every backtrace Bacon prints.
      def skips
        return if Runner.motion? || !(Shards.share || Quarantine.skips_any? || Verification.active?)

        wrap(Bacon::Context, :it) do |context, original, args, block|
          next if skip?(context, args.first)

          original.call(*args, &block)
        end
      end

      private

      def wrap_motion_it
        wrap(Bacon::Context, :it) do |context, original, args, block|
          next if skip?(context, args.first)

          Runner.remember_location(context, args.first, block)
          original.call(*args, &block)
        end
      end

      def wrap_tests
        wrap(Bacon::Context, :tests) do |context, original, args, block|
          Runner.mark_layer(context, 'ui')
          original.call(*args, &block)
        end
      end

      def wrap_wait_for_change
        wrap(Bacon::Context, :wait_for_change) do |_context, original, args, block|
          name = "wait_for_change '#{args[1]}'"
          wait = Journal.safely { Journal.recorder.wait_begin(name, args[2] || 1, Sites.call_site) }
          original.call(*args) do |*values|
            Journal.safely { Journal.recorder.wait_end(wait, true) }
            block&.call(*values)
          end
        end
      end

      def wrap_functional
        wrap(Bacon::Functional::API, :view) do |_context, original, args, block|
          label = args.first
          next original.call(*args, &block) if defined?(UIView) && label.is_a?(UIView)

          Lookup.new("view '#{label}'").run { original.call(*args, &block) }
        end
        wrap(Bacon::Functional::API, :views) do |_context, original, args, block|
          Lookup.new("views #{args.first}").run { original.call(*args, &block) }
        end
      end

      def wrap_run_loop
        wrap(RunLoopHelpers.singleton_class, :wait_till) do |_helpers, original, args, block|
          original.call(*args) do |*values|
            Lookup.attempt
            block.call(*values)
          end
        end
      end

      # Whether the spec `description` of `context` must not run: another shard's (not recorded),
      # or quarantined as skipped (recorded as such).
      def skip?(context, description)
        id = Runner.spec_id(description, context)
        return true unless Shards.mine?(id) && Verification.mine?(id)
        return false unless Quarantine.skip?(id)

        site = Runner.location(context, description)
        Journal.safely { Journal.recorder.spec_skipped(description, site, Runner.layer_of(context)) }
        true
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
    end
  end
end

# Bacon's namespace, where its outputs live.
module Bacon
  # SpecDoxOutput, recording as it prints. Both hook styles: Bacon 1.2's block hooks and
  # RubyMotion's begin/end hooks; each calls SpecDoxOutput's own.
  module TestLedgerOutput
    include SpecDoxOutput

    def handle_specification(name)
      TestLedger.install_hooks
      TestLedger.install_skips
      TestLedger.context_begin(name)
      super
    ensure
      TestLedger.context_end
    end

    # Bacon 1.2's block runs the spec with its before and after blocks: a retry runs it again.
    def handle_requirement(description, &spec)
      TestLedger.requirement_begin(description)
      super(description) { run_attempts(description, &spec) }
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

    private

    # Runs the spec (the block) until no other attempt is to follow; returns the last one's error.
    def run_attempts(description)
      loop do
        error = yield
        shown = TestLedger.requirement_end(error)
        return error unless TestLedger.retrying?

        puts " [#{shown}]"
        print "#{spaces}  - #{description}"
        TestLedger.requirement_begin(description)
      end
    end
  end

  Outputs['testledger'] = TestLedgerOutput if defined?(Outputs)
end

TestLedger.install_hooks

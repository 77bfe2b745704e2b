import Foundation
import LedgerTestSupport
import Testing

/// `record --shard` and `record --repeat-new` with a real Bacon and the testledger module, which
/// acts on TESTLEDGER_SHARD and TESTLEDGER_REPEAT_NEW in its own process.
@Suite(.enabled(if: InstalledTools.bacon != nil, "bacon (Debian's ruby-bacon) is not installed"))
struct BaconShardAndRepeatTests {
    /// Six specs; with `added`, a seventh that no earlier run knows.
    static func specs(added: Bool) -> String {
        let names = ["adds", "removes", "totals", "empties", "saves", "loads"] + (added ? ["discounts"] : [])
        return "describe 'Cart' do\n"
            + names.map { "  it '\($0)' do\n    1.should == 1\n  end\n" }.joined() + "end\n"
    }

    /// Repeats: a known spec, a new stable one, and a new one that fails its third run (a count
    /// in a file beside it).
    static func repeated(withNew: Bool) -> String {
        var text = "describe 'Repeated' do\n  it 'is known' do\n    1.should == 1\n  end\n"
        if withNew {
            text += #"""
                  it 'is new and stable' do
                    2.should == 2
                  end

                  it 'fails on its third run' do
                    counter = File.join(__dir__, 'third-run')
                    runs = File.exist?(counter) ? File.read(counter).to_i + 1 : 1
                    File.write(counter, runs.to_s)
                    runs.should.not == 3
                  end

                """#
        }
        return text + "end\n"
    }

    func record(_ cli: CLI, _ options: [String], environment: [String: String] = [:]) async throws -> CLI.Output {
        let bacon = try #require(InstalledTools.bacon)
        return try await cli.run(
            ["record", "--project", "Specs"] + options + [
                "--", bacon, "-r", BaconModuleTests.module, "-o", "TestLedger", "spec/cart_spec.rb",
            ], environment: ["TESTLEDGER_BIN": CLI.binary.path].merging(environment) { _, given in given })
    }

    /// The specs Bacon's output shows as run (`  - name`).
    func ran(_ output: CLI.Output) -> [String] {
        output.stdout.split(separator: "\n").filter { $0.hasPrefix("  - ") }.map {
            String($0.dropFirst(4).prefix { $0 != " " && $0 != "[" })
        }
    }

    @Test func everySpecRunsInExactlyOneShardANewOneToo() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try cli.directory.write("spec/cart_spec.rb", Self.specs(added: false))
        let whole = try await record(cli, ["--revision", "0ld"])
        #expect(whole.status == 0 && ran(whole).count == 6, "\(whole.stdout)\(whole.stderr)")

        try cli.directory.write("spec/cart_spec.rb", Self.specs(added: true))
        var seen: [String] = []
        for index in 1...3 {
            let shard = try await record(cli, ["--revision", "new", "--shard", "\(index)/3"])
            #expect(shard.status == 0, "\(shard.stdout)\(shard.stderr)")
            #expect(shard.stderr.contains("testledger: shard \(index)/3: "), "\(shard.stderr)")
            #expect(!ran(shard).isEmpty, "the six timed specs are spread over the three shards: \(shard.stdout)")
            seen += ran(shard)
        }
        #expect(seen.sorted() == ["adds", "discounts", "empties", "loads", "removes", "saves", "totals"], "\(seen)")
        // Each shard's run holds only the specs it ran.
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.prefix(3).map { $0["tests"] as? Int ?? 0 }.reduce(0, +) == 7, "\(runs)")
    }

    @Test func withoutAPlanTheModulePlacesEverySpecByItsIdAlone() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try cli.directory.write("spec/cart_spec.rb", Self.specs(added: true))
        let bacon = try #require(InstalledTools.bacon)
        func shard(_ value: String) async throws -> CLI.Output {
            try await ChildProcess.runTool(
                [bacon, "-r", BaconModuleTests.module, "-o", "TestLedger", "spec/cart_spec.rb"],
                environment: ["TESTLEDGER_SHARD": value, "TESTLEDGER_EVENTS": cli.directory.path("events.ndjson")],
                in: cli.directory.url)
        }
        var seen: [String] = []
        for index in 1...2 { seen += ran(try await shard("\(index)/2")) }
        #expect(seen.sorted() == ["adds", "discounts", "empties", "loads", "removes", "saves", "totals"], "\(seen)")
        let wrong = try await shard("3/2")
        #expect(ran(wrong).count == 7, "every spec runs: \(wrong.stdout)")
        #expect(wrong.stderr.contains("TESTLEDGER_SHARD is I/N with 1 ≤ I ≤ N, not 3/2"), "\(wrong.stderr)")
    }

    @Test func aNewSpecThatFailsOneRunFailsTheJobAndKnownSpecsRunOnce() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try cli.directory.write("spec/cart_spec.rb", Self.repeated(withNew: false))
        #expect(try await record(cli, ["--branch", "main"]).status == 0)

        try cli.directory.write("spec/cart_spec.rb", Self.repeated(withNew: true))
        let output = try await record(cli, ["--branch", "feature", "--repeat-new", "5"])
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        let line = "flaky new test: Repeated/fails on its third run failed 1 of 6 runs: not ready to merge"
        #expect(output.stdout.contains("testledger: " + line), "record's summary: \(output.stdout)")
        #expect(output.stderr.contains("testledger: " + line), "the module's: \(output.stderr)")
        #expect(output.stdout.contains("testledger: new tests proven (passed 6 of 6 runs): Repeated/is new and stable"))
        #expect(output.stdout.contains("  - is new and stable [repeating new spec 1/5]"), "\(output.stdout)")
        func attempts(_ test: String) async throws -> [String] {
            try #require(try await cli.json(["show", test]) as? [String: Any])["attempts"] as? [String] ?? []
        }
        await #expect(try attempts("Repeated/is known") == ["passed"])
        await #expect(try attempts("Repeated/is new and stable") == Array(repeating: "passed", count: 6))
        await #expect(
            try attempts("Repeated/fails on its third run") == [
                "passed", "passed", "failed", "passed", "passed", "passed",
            ])
    }

    /// A CI machine's ledger is new: with `TESTLEDGER_URL` and `TESTLEDGER_TOKEN`, `record` plans
    /// shards and tells new specs by the team server's history.
    @Test func onANewMachineTheServersHistoryPlansShardsAndTellsNewSpecs() async throws {
        let team = try CLI()
        defer { team.directory.remove() }
        try team.directory.write("spec/cart_spec.rb", Self.specs(added: false))
        #expect(try await record(team, ["--branch", "main"]).status == 0)
        try team.directory.write("spec/cart_spec.rb", Self.repeated(withNew: false))
        #expect(try await record(team, ["--branch", "main"]).status == 0)
        let token = try await team.token("Specs", "write")
        let server = try ServerProcess(team)
        defer { server.stop() }
        let remote = ["TESTLEDGER_URL": server.url, "TESTLEDGER_TOKEN": token]

        let machine = try CLI()
        defer { machine.directory.remove() }
        try machine.directory.write("spec/cart_spec.rb", Self.specs(added: false))
        let shard = try await record(machine, ["--branch", "feature", "--shard", "1/2"], environment: remote)
        #expect(shard.status == 0, "\(shard.stdout)\(shard.stderr)")
        // How many of the seven fall to shard 1 depends on their timings; the seven are the server's.
        #expect(
            shard.stderr.contains(#/testledger: shard 1/2: \d of 7 tests/#), "the server's seven: \(shard.stderr)")

        try machine.directory.write("spec/cart_spec.rb", Self.repeated(withNew: true))
        let repeated = try await record(machine, ["--branch", "feature", "--repeat-new", "2"], environment: remote)
        #expect(repeated.status == 1, "the third run fails: \(repeated.stdout)\(repeated.stderr)")
        #expect(repeated.stdout.contains("flaky new test: Repeated/fails on its third run failed 1 of 3 runs"))
        let known = try #require(try await machine.json(["show", "Repeated/is known"]) as? [String: Any])
        #expect(known["attempts"] as? [String] == ["passed"], "main ran it, on the server: \(known)")

        server.stop()
        let offline = try await record(machine, ["--branch", "feature", "--shard", "1/2"], environment: remote)
        #expect(
            offline.stderr.contains("testledger: could not read shard timings from \(server.url)"), "\(offline.stderr)")
    }
}

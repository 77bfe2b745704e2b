import Foundation
import LedgerTestSupport
import Testing

/// `testledger verify -- bacon …` with a real Bacon and the testledger module, which runs the named
/// specs alone, each up to N times until it fails, in its one process.
@Suite(.enabled(if: InstalledTools.bacon != nil, "bacon (Debian's ruby-bacon) is not installed"))
struct BaconVerifyTests {
    /// A spec that fails every fourth run (a count in a file beside it), a stable one, and one
    /// never named.
    static let specs = #"""
        describe 'Checkout' do
          it 'charges the card' do
            counter = File.join(__dir__, 'charges')
            runs = File.exist?(counter) ? File.read(counter).to_i + 1 : 1
            File.write(counter, runs.to_s)
            (runs % 4).should.not == 0
          end

          it 'totals' do
            (2 + 2).should == 4
          end

          it 'refunds' do
            1.should == 1
          end
        end

        """#

    func verify(_ cli: CLI, _ options: [String]) async throws -> CLI.Output {
        let bacon = try #require(InstalledTools.bacon)
        return try await cli.run(
            ["verify"] + options + [
                "--project", "Specs", "--", bacon, "-r", BaconModuleTests.module, "-o", "TestLedger",
                "spec/checkout_spec.rb",
            ], environment: ["TESTLEDGER_BIN": CLI.binary.path])
    }

    @Test func theModuleRunsTheNamedSpecsUntilOneFails() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try cli.directory.write("spec/checkout_spec.rb", Self.specs)
        // p = 1 / 4: 11 runs. The flaky spec fails its fourth; the stable one passes all 11.
        let output = try await verify(cli, ["Checkout/charges the card", "Checkout/totals", "--rate", "0.25"])
        #expect(output.status == 10, "\(output.stdout.suffix(1_500)) \(output.stderr)")
        #expect(
            output.stdout.contains("Checkout/charges the card: still-flaky: failed on run 4 of 11"),
            "\(output.stdout.suffix(1_500))")
        #expect(
            output.stdout.contains(
                "Checkout/totals: fixed: 11 of 11 passed — at 95 % confidence it now fails less than 23.8 % of the time"
            ))
        #expect(output.stdout.contains("  testledger show 'Checkout/charges the card' --run "), "a shell's word")
        #expect(!output.stdout.contains("refunds"), "a spec not named does not run")
        let charges = try #require(try await cli.json(["show", "Checkout/charges the card"]) as? [String: Any])
        #expect(charges["attempts"] as? [String] == ["passed", "passed", "passed", "failed"], "\(charges)")
        let totals = try #require(try await cli.json(["show", "Checkout/totals"]) as? [String: Any])
        #expect((totals["attempts"] as? [String])?.count == 11, "\(totals)")
        let refunds = try await cli.run(["show", "Checkout/refunds"])
        #expect(refunds.status != 0, "\(refunds.stdout)")

        // On the code before a fix: the next failure comes on the fourth run again.
        let reproduced = try await verify(cli, ["Checkout/charges the card", "--rate", "0.25", "--reproduce"])
        #expect(reproduced.status == 0, "\(reproduced.stderr)")
        #expect(reproduced.stdout.contains("Checkout/charges the card: reproduced on run 4 of 12"))
    }
}

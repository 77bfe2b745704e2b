import Foundation
import LedgerTestSupport
import Testing

/// `ingest` of folders, and its progress: drawn on a terminal, never into a pipe.
@Suite struct IngestProgressTests {
    func junit(_ name: String) -> String {
        #"<testsuite name="s"><testcase classname="App.A" name="\#(name)"/></testsuite>"#
    }

    @Test func aFolderIsIngestedFileByFilePassingOverOtherFiles() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try cli.directory.write("results/b.xml", junit("b"))
        try cli.directory.write("results/nested/a.xml", junit("a"))
        try cli.directory.write("results/build.log", "compiling…\n")
        try cli.directory.write("results/.hidden.xml", junit("hidden"))
        let ingested = try await cli.run(["ingest", "--project", "Shop", "results"])
        #expect(ingested.status == 0, "\(ingested.stderr)")
        let lines = ingested.stdout.split(separator: "\n")
        #expect(
            lines.count == 2 && lines[0].hasPrefix("results/b.xml: junit, 1 result(s) stored"), "\(ingested.stdout)")
        #expect(lines[1].hasPrefix("results/nested/a.xml: junit, 1 result(s) stored"))
        #expect(ingested.stderr.contains("results/build.log: passed over, in no format testledger reads"))
        // Into a pipe: no progress drawn.
        #expect(!ingested.stderr.contains("\r") && !ingested.stderr.contains("\u{1B}"))

        let named = try await cli.run(["ingest", "--project", "Shop", "results/build.log"])
        #expect(named.status != 0 && named.stderr.contains("results/build.log:1: not a format testledger reads"))
    }

    @Test func aTerminalSeesProgressOfALargeFile() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let run = "6f1c0a52-3b7e-4d7a-9a51-0c2d4e8f9b10"
        var text =
            #"{"v":1,"type":"run.start","run":"\#(run)","at":1700000000,"project":"Big","source":"xctest"}"# + "\n"
        for index in 0..<20_000 {
            text +=
                #"{"v":1,"type":"test.start","run":"\#(run)","at":1700000000,"test":"Big.Suite/test\#(index)","attempt":1}"#
                + "\n"
            text +=
                #"{"v":1,"type":"test.end","run":"\#(run)","at":1700000001,"test":"Big.Suite/test\#(index)","attempt":1,"outcome":"passed","duration":0.5}"#
                + "\n"
        }
        let file = try cli.directory.write("big.ndjson", text)
        var environment = ChildProcess.cleanEnvironment()
        environment["CI"] = nil
        environment["TERM"] = "xterm"
        environment["TESTLEDGER_DB"] = cli.database
        // Drawn at once, however quick the ingest: no race with the first draw's delay.
        environment["TESTLEDGER_PROGRESS_DELAY"] = "0"
        let command = "'\(CLI.binary.path)' ingest '\(file.path)'"
        // `script` runs the command on a pseudo-terminal, as a person's shell would.
        let output = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/script"), ["-qfec", command, "/dev/null"], environment: environment,
            in: cli.directory.url)
        #expect(output.status == 0, "\(output.stdout) \(output.stderr)")
        #expect(output.stdout.contains("big.ndjson: ledger, 20000 result(s) stored"), "\(output.stdout)")
        #expect(output.stdout.contains("\r\u{1B}[2Kingest  "), "no progress drawn: \(output.stdout.prefix(300))")
        #expect(output.stdout.contains(" MiB  ") && output.stdout.contains("%"))
    }
}

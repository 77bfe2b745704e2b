import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The helper that starts git: what it keeps, what it reports and what it leaves out of the child.
@Suite struct SpawnTests {
    @Test func keepsStandardOutputAndTheExitStatus() throws {
        let ended = try Spawn.run("sh", ["-c", "printf 'one\\ntwo\\n'; echo ignored >&2; exit 3"])
        #expect(ended.status == 3)
        #expect(ended.text == "one\ntwo\n")
    }

    @Test func aSignalEndsWith128PlusItsNumber() throws {
        #expect(try Spawn.run("sh", ["-c", "kill -9 $$"]).status == 128 + 9)
    }

    @Test func aMissingProgramIsAnError() {
        let missing = #expect(throws: Spawn.Failure.self) { try Spawn.run("testledger-no-such-program", []) }
        #expect(missing?.code == ENOENT)
        #expect(missing?.description.hasPrefix("cannot run testledger-no-such-program: ") == true)
        #expect(throws: Spawn.Failure.self) { try Spawn.run("/nonexistent/folder/git", ["--version"]) }
    }

    @Test func theChildGetsOnlyTheEnvironmentGiven() throws {
        let ended = try Spawn.run("/usr/bin/env", [], environment: ["LEDGER_SPAWN_TEST": "yes"])
        #expect(ended.text == "LEDGER_SPAWN_TEST=yes\n")
    }

    @Test func noDescriptorOfTheParentReachesTheChild() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("held.txt", "held open without close-on-exec")
        let held = open(directory.path("held.txt"), O_RDONLY)
        try #require(held > 2)
        defer { close(held) }
        // The shell asks about its own descriptors: /dev/fd is the asking process's.
        let script = "for fd in 0 1 2 \(held); do if [ -e /dev/fd/$fd ]; then echo $fd; fi; done"
        #expect(try Spawn.run("sh", ["-c", script]).text == "0\n1\n2\n")
        #if os(Linux)
            let listed = try Spawn.run("sh", ["-c", "ls /proc/$$/fd"]).text.split(separator: "\n")
            #expect(listed == ["0", "1", "2"])
        #endif
    }

    @Test func standardInputIsEmpty() throws {
        #expect(try Spawn.run("cat", []).standardOutput.isEmpty)
    }
}

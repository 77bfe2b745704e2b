import Foundation
import LedgerCore
import Testing

@testable import LedgerDelivery

@Suite struct TerminalProgressTests {
    @Test func progressIsOnAtATerminalAndOffOutsideOneInCIAndWhenAskedSo() {
        #expect(TerminalProgress.isWanted(environment: ["TERM": "xterm"], isTerminal: true))
        #expect(!TerminalProgress.isWanted(environment: ["TERM": "xterm"], isTerminal: false))
        #expect(!TerminalProgress.isWanted(environment: ["CI": "true", "TERM": "xterm"], isTerminal: true))
        #expect(!TerminalProgress.isWanted(environment: ["TESTLEDGER_PROGRESS": "never"], isTerminal: true))
        #expect(!TerminalProgress.isWanted(environment: ["TERM": "dumb"], isTerminal: true))
    }

    /// Each draw replaces the line; printing clears it first; the end clears it once.
    @Test func drawsInPlaceClearsForPrintingAndClearsOnceAtTheEnd() {
        let screen = Screen()
        let progress = TerminalProgress(
            ProgressLine(label: "ingest", total: 4 << 20, unit: .bytes), read: { 1 << 20 }, write: screen.write)
        progress.interrupt { screen.write("first\n") }
        #expect(screen.text == "first\n", "nothing to clear before the first draw")
        progress.draw()
        progress.draw()
        #expect(screen.text == "first\n" + String(repeating: "\r\u{1B}[2Kingest  1.0 / 4.0 MiB  25%", count: 2))
        screen.clear()
        progress.interrupt { screen.write("a.xml: stored\n") }
        #expect(screen.text == "\r\u{1B}[2Ka.xml: stored\n")
        screen.clear()
        progress.finish()
        progress.finish()
        progress.draw()
        #expect(screen.text == "\r\u{1B}[2K", "cleared once, and never drawn again")
    }

    @Test func quickWorkThatNeverDrewLeavesNothing() {
        let screen = Screen()
        let progress = TerminalProgress(
            ProgressLine(label: "ingest", total: 10, unit: .bytes), read: { 10 }, write: screen.write)
        progress.finish()
        #expect(screen.text.isEmpty)
    }
}

/// What was written to the terminal.
private final class Screen: @unchecked Sendable {
    private let lock = NSLock()
    private var written = ""

    var text: String { lock.withLock { written } }
    func clear() { lock.withLock { written = "" } }
    @Sendable func write(_ text: String) { lock.withLock { written += text } }
}

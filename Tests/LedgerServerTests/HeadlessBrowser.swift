import Foundation
import LedgerTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Debian's chromium, headless: loads a page and reports its final DOM and console errors.
///
/// It drives the browser over the DevTools protocol on `--remote-debugging-pipe` rather than reading
/// `--dump-dom` and `--enable-logging=stderr`: chromium logs every console message of a page at INFO, so
/// `console.error` looks like `console.log` there, failed loads (a 404 stylesheet) are not logged at all, and an
/// `alert()` blocks `--dump-dom` for good. Here an alert is reported as an error and dismissed.
struct HeadlessBrowser: Sendable {
    var executable: URL
    /// For the whole load, from starting the browser to reading the DOM.
    var timeout: TimeInterval = 60
    /// How long after the load event the page may keep fetching before its DOM is read anyway.
    var settleTime: TimeInterval = 5

    struct Page: Sendable {
        /// `document.documentElement.outerHTML` once the page is loaded and the network idle.
        var dom: String
        /// `console.error` and failed `console.assert` calls, uncaught exceptions and rejections, the browser's own
        /// errors (a resource that failed to load, but for /favicon.ico) and dialogs (`alert: 1`), in the order they
        /// happened.
        var consoleErrors: [String]
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The first of chromium, chromium-browser and google-chrome on PATH; nil when there is none.
    static func find() -> HeadlessBrowser? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for directory in path.split(separator: ":") {
                let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) {
                    return HeadlessBrowser(executable: candidate)
                }
            }
        }
        return nil
    }

    func load(_ url: URL) throws -> Page {
        let deadline = Date().addingTimeInterval(timeout)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("headless-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { Self.remove(directory) }
        let log = directory.appendingPathComponent("chromium.log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw Failure(description: "cannot create \(log.path)")
        }

        // The DevTools pipe is the browser's fds 3 (commands) and 4 (replies): the shell moves our stdin and
        // stdout there, since Process passes no other descriptors. Its stderr, a lot of D-Bus noise, goes to a file.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments =
            ["-c", #"exec "$0" "$@" 3<&0 4>&1 </dev/null >/dev/null"#, executable.path]
            + Self.flags + ["--user-data-dir=\(directory.appendingPathComponent("profile").path)"]
        let commands = Pipe()
        let replies = Pipe()
        // Its temporary files (a singleton socket, shared memory) go with the profile.
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": directory.path]) { $1 }
        process.standardInput = commands
        process.standardOutput = replies
        process.standardError = try FileHandle(forWritingTo: log)
        signal(SIGPIPE, SIG_IGN)  // A browser that died makes our writes fail rather than kill the tests.
        try process.run()
        let devTools = DevTools(
            commands: commands.fileHandleForWriting.fileDescriptor,
            replies: replies.fileHandleForReading.fileDescriptor,
            deadline: deadline
        )
        defer {
            _ = try? devTools.send("Browser.close")
            Self.stop(process)
        }
        do {
            return try load(url, with: devTools)
        } catch {
            let lines = (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n") ?? []
            let tail = lines.filter { !$0.contains("dbus") && !$0.contains("unexpected operator") }.suffix(5)
            guard !tail.isEmpty else { throw error }
            throw Failure(description: "\(error)\nchromium's stderr:\n\(tail.joined(separator: "\n"))")
        }
    }

    /// The same on a thread of its own: a test's server in the same process keeps Swift's few cooperative threads.
    func load(_ url: URL) async throws -> Page {
        try await onOwnThread { try load(url) }
    }

    private func load(_ url: URL, with devTools: DevTools) throws -> Page {
        let target = try devTools.call("Target.createTarget", ["url": "about:blank"])
        let targetID = target["targetId"] ?? ""
        let attached = try devTools.call("Target.attachToTarget", ["targetId": targetID, "flatten": true])
        guard let session = attached["sessionId"] as? String else { throw Failure(description: "no DevTools session") }
        for method in ["Page.enable", "Runtime.enable", "Log.enable"] {
            _ = try devTools.call(method, session: session)
        }
        _ = try devTools.call("Page.setLifecycleEventsEnabled", ["enabled": true], session: session)

        let navigation = try devTools.call("Page.navigate", ["url": url.absoluteString], session: session)
        if let error = navigation["errorText"] as? String {
            throw Failure(description: "loading \(url.absoluteString) failed: \(error)")
        }
        let loader = navigation["loaderId"] as? String
        var settleBy: Date?  // When the load event came, plus settleTime.
        var idle = false
        while settleBy == nil || !idle, let event = try devTools.nextEvent(until: settleBy) {
            let params = event["params"] as? [String: Any] ?? [:]
            switch event["method"] as? String {
            case "Page.loadEventFired":
                settleBy = settleBy ?? Date().addingTimeInterval(settleTime)
            case "Page.lifecycleEvent" where params["name"] as? String == "networkIdle":
                idle = idle || params["loaderId"] as? String == loader
            default:
                break
            }
        }
        let html = try devTools.call(
            "Runtime.evaluate",
            ["expression": "document.documentElement.outerHTML", "returnByValue": true],
            session: session
        )
        let dom = (html["result"] as? [String: Any])?["value"] as? String ?? ""
        return Page(dom: dom, consoleErrors: devTools.errors)
    }

    static let flags = [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--remote-debugging-pipe",
        "--no-first-run", "--no-default-browser-check", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--disable-default-apps", "--mute-audio", "--hide-scrollbars",
    ]

    /// Waits a little for the browser to quit after Browser.close, then kills it (its children follow it).
    private static func stop(_ process: Process) {
        let patience = Date().addingTimeInterval(5)
        while process.isRunning && Date() < patience { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Removes the profile, trying again while the browser's last children may still be writing to it.
    private static func remove(_ directory: URL) {
        for _ in 0..<10 {
            if (try? FileManager.default.removeItem(at: directory)) != nil { return }
            usleep(100_000)
        }
    }
}

/// The DevTools protocol over a pipe: JSON messages, each ended by a NUL byte.
private final class DevTools {
    let commands: Int32
    let replies: Int32
    let deadline: Date
    var nextID = 0
    var buffer: [UInt8] = []
    var events: [[String: Any]] = []
    var errors: [String] = []

    init(commands: Int32, replies: Int32, deadline: Date) {
        self.commands = commands
        self.replies = replies
        self.deadline = deadline
    }

    /// Sends a command and returns its result, keeping the events that come meanwhile for nextEvent.
    func call(_ method: String, _ params: [String: Any] = [:], session: String? = nil) throws -> [String: Any] {
        let id = try send(method, params, session: session)
        while true {
            guard let message = try receive(until: deadline) else { throw timedOut(method) }
            if message["id"] as? Int == id {
                if let error = message["error"] as? [String: Any] {
                    throw HeadlessBrowser.Failure(description: "\(method): \(error["message"] ?? error)")
                }
                return message["result"] as? [String: Any] ?? [:]
            }
            if message["method"] != nil { events.append(message) }
        }
    }

    /// The next event, or nil once `until` (if earlier than the deadline) has passed.
    func nextEvent(until: Date?) throws -> [String: Any]? {
        if !events.isEmpty { return events.removeFirst() }
        let limit = min(until ?? deadline, deadline)
        while let message = try receive(until: limit) {
            if message["method"] != nil { return message }
        }
        if limit == deadline { throw timedOut("waiting for the page to load") }
        return nil
    }

    private func timedOut(_ what: String) -> HeadlessBrowser.Failure {
        HeadlessBrowser.Failure(description: "timed out: \(what)")
    }

    @discardableResult
    func send(_ method: String, _ params: [String: Any] = [:], session: String? = nil) throws -> Int {
        nextID += 1
        var message: [String: Any] = ["id": nextID, "method": method, "params": params]
        if let session { message["sessionId"] = session }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(commands, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw HeadlessBrowser.Failure(description: "the browser is gone (\(method))") }
            written += count
        }
        return nextID
    }

    /// The next message, or nil when `limit` passes first. Notes errors and answers dialogs on the way.
    private func receive(until limit: Date) throws -> [String: Any]? {
        while true {
            if let end = buffer.firstIndex(of: 0) {
                let data = Data(buffer[..<end])
                buffer.removeSubrange(...end)
                guard let message = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { continue }
                try notice(message)
                return message
            }
            let remaining = limit.timeIntervalSinceNow
            guard remaining > 0 else { return nil }
            var descriptor = pollfd(fd: replies, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(remaining * 1000, 1000).rounded(.up)))
            if ready < 0 && errno != EINTR { throw HeadlessBrowser.Failure(description: "poll failed: \(errno)") }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(replies, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw HeadlessBrowser.Failure(description: "the browser quit") }
            buffer += chunk[..<count]
        }
    }

    private func notice(_ message: [String: Any]) throws {
        let params = message["params"] as? [String: Any] ?? [:]
        switch message["method"] as? String {
        case "Runtime.consoleAPICalled" where ["error", "assert"].contains(params["type"] as? String):
            let arguments = (params["args"] as? [[String: Any]] ?? []).map(Self.text(of:))
            let frame = ((params["stackTrace"] as? [String: Any])?["callFrames"] as? [[String: Any]])?.first
            errors.append(arguments.joined(separator: " ") + Self.location(frame))
        case "Runtime.exceptionThrown":
            let details = params["exceptionDetails"] as? [String: Any] ?? [:]
            let exception = (details["exception"] as? [String: Any]).map(Self.text(of:))
            errors.append([details["text"] as? String, exception].compactMap { $0 }.joined(separator: " "))
        case "Log.entryAdded":
            let entry = params["entry"] as? [String: Any] ?? [:]
            // Not the page's fault: chromium asks for /favicon.ico whether the page names one or not.
            if entry["level"] as? String == "error", (entry["url"] as? String)?.hasSuffix("/favicon.ico") != true {
                errors.append("\(entry["text"] ?? "")" + ((entry["url"] as? String).map { " (\($0))" } ?? ""))
            }
        case "Page.javascriptDialogOpening":
            errors.append("\(params["type"] ?? "dialog"): \(params["message"] ?? "")")
            try send("Page.handleJavaScriptDialog", ["accept": true], session: message["sessionId"] as? String)
        default:
            break
        }
    }

    private static func text(of object: [String: Any]) -> String {
        "\(object["value"] ?? object["description"] ?? object["unserializableValue"] ?? object["type"] ?? "")"
    }

    private static func location(_ frame: [String: Any]?) -> String {
        guard let frame, let url = frame["url"] as? String, !url.isEmpty else { return "" }
        return " (\(url):\((frame["lineNumber"] as? Int ?? 0) + 1))"
    }
}

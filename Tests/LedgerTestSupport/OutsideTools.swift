import Foundation

/// The programs outside Swift that the tests run, as `Tests/tools.txt` lists them (the list
/// `.ci/run` installs from): whether one is here, and the skip that names it and how to install it.
public enum OutsideTools {
    /// One line of the list.
    public struct Tool: Sendable {
        public let name: String
        /// `command` (found in `PATH`) or `python` (a module python3 imports).
        let kind: String
        let target: String
        /// `apt` or `pip`.
        let installer: String
        let package: String

        /// How to install it, as a command.
        public var installLine: String {
            installer == "apt" ? "apt-get install -y \(package)" : "python3 -m pip install '\(package)'"
        }
    }

    /// Every tool on the list, by name.
    public static let listed: [String: Tool] = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "tools.txt")
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        var tools: [String: Tool] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard words.count == 5 else { continue }
            tools[words[0]] = Tool(
                name: words[0], kind: words[1], target: words[2], installer: words[3], package: words[4])
        }
        return tools
    }()

    /// Where `name`'s command is, when it is a command found in `PATH`.
    public static func path(_ name: String) -> String? {
        guard let tool = listed[name], tool.kind == "command" else { return nil }
        return command(tool.target)
    }

    /// Whether `name` is here; a name not on the list never is.
    public static func available(_ name: String) -> Bool {
        guard let tool = listed[name] else { return false }
        return tool.kind == "python" ? pythonImports(tool.target) : command(tool.target) != nil
    }

    /// Why a test that needs `names` skips (a `Comment`'s text): each missing one, with the line
    /// that installs it.
    public static func skip(_ names: String...) -> String {
        let missing = names.filter { !available($0) }
        let lines = missing.map { name in
            listed[name].map { "\(name) (\($0.installLine))" } ?? "\(name) (not in Tests/tools.txt)"
        }
        return "needs " + lines.joined(separator: ", ")
    }

    /// The first executable `name` in `PATH`.
    public static func command(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private static func pythonImports(_ module: String) -> Bool {
        guard let python = command("python3") else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", "import \(module)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

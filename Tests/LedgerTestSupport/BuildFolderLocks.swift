import Foundation

/// One program at a time in each fixture package's shared build folder (`.build-fixtures/NAME`):
/// a suite's `swift test` there never finds another suite's half-built or rebuilt products, nor
/// times another's build. SwiftPM locks the folder while it builds, not while the tests run.
actor BuildFolderLocks {
    static let shared = BuildFolderLocks()

    private var held: Set<String> = []
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    /// The fixture build folders `arguments` name (in a word of their own or inside a command
    /// line), sorted: taken in this order, two programs never wait on each other.
    static func folders(in arguments: [String]) -> [String] {
        let marker = "/.build-fixtures/"
        var folders: Set<String> = []
        for argument in arguments {
            var rest = Substring(argument)
            while let found = rest.range(of: marker) {
                let name = rest[found.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
                if !name.isEmpty { folders.insert(String(name)) }
                rest = rest[found.upperBound...]
            }
        }
        return folders.sorted()
    }

    func acquire(_ folders: [String]) async {
        for folder in folders {
            while held.contains(folder) {
                await withCheckedContinuation { waiting[folder, default: []].append($0) }
            }
            held.insert(folder)
        }
    }

    func release(_ folders: [String]) {
        for folder in folders {
            held.remove(folder)
            if var queue = waiting[folder], !queue.isEmpty {
                queue.removeFirst().resume()
                waiting[folder] = queue
            }
        }
    }
}

// swift-tools-version:6.1
import Foundation
import PackageDescription

// libFuzzer targets for every input parser. `Scripts/fuzz` builds them with AddressSanitizer and
// coverage on every module (`-Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=…`) and
// libFuzzer's `fuzzer_no_main` runtime: SwiftPM gives each executable a `main` of its own (and
// the build's tools theirs), so each target starts libFuzzer's driver from it.
/// A path dependency is named after its folder: the checkout's.
let ledger = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent
/// The fuzzed parsers, read from `targets.txt` (the list `Scripts/fuzz.py` runs): the first word
/// of each line that is neither blank nor a `#` comment.
let parsers: [String] = {
    let list = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "targets.txt")
    guard let text = try? String(contentsOf: list, encoding: .utf8) else { fatalError("cannot read \(list.path)") }
    return text.split(separator: "\n").compactMap { line in
        line.hasPrefix("#") ? nil : line.split(whereSeparator: \.isWhitespace).first.map(String.init)
    }
}()
/// What a target needs beyond `FuzzSupport`.
let extraDependencies: [String: [Target.Dependency]] = [
    "Gzip": [
        .product(name: "CompressNIO", package: "compress-nio"), .product(name: "NIOCore", package: "swift-nio"),
    ]
]
let fuzzer: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]
let libFuzzer: [LinkerSetting] = [.unsafeFlags(["-sanitize=address"])]

let package = Package(
    name: "TestLedgerFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: "..", traits: []),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
    ],
    targets: [
        .target(
            name: "FuzzSupport",
            dependencies: [
                .product(name: "LedgerCore", package: ledger), .product(name: "LedgerImport", package: ledger),
            ])
    ]
        + parsers.map {
            .executableTarget(
                name: "Fuzz\($0)",
                dependencies: ["FuzzSupport", .product(name: "LedgerImport", package: ledger)]
                    + (extraDependencies[$0] ?? []),
                swiftSettings: fuzzer, linkerSettings: libFuzzer)
        }
)

// swift-tools-version:6.1
import Foundation
import PackageDescription

// libFuzzer targets for every input parser. `Scripts/fuzz` builds them with AddressSanitizer and
// coverage on every module (`-Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=…`) and
// libFuzzer's `fuzzer_no_main` runtime: SwiftPM gives each executable a `main` of its own (and
// the build's tools theirs), so each target starts libFuzzer's driver from it.
/// A path dependency is named after its folder: the checkout's.
let ledger = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent
let parsers = ["LedgerStream", "JUnit", "SwiftTesting", "TAP", "Bacon", "RSpec", "XCResult"]
let fuzzer: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]
let libFuzzer: [LinkerSetting] = [.unsafeFlags(["-sanitize=address"])]

let package = Package(
    name: "TestLedgerFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: "..", traits: []),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "FuzzSupport",
            dependencies: [.product(name: "LedgerImport", package: ledger)]),
        .executableTarget(
            name: "FuzzGzip", dependencies: ["FuzzSupport", .product(name: "CompressNIO", package: "compress-nio")],
            swiftSettings: fuzzer, linkerSettings: libFuzzer),
    ]
        + parsers.map {
            .executableTarget(
                name: "Fuzz\($0)", dependencies: ["FuzzSupport"], swiftSettings: fuzzer, linkerSettings: libFuzzer)
        }
)

// swift-tools-version:6.1
import Foundation
import PackageDescription

// Tests that fail on their first run only, for `testledger record --retries`: XCTest and Swift
// Testing alike, each linking the TestLedger library so their steps land on the right attempt.
// The library's package is three folders up; SwiftPM names a local package after its folder.
let root = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("../../..").standardizedFileURL

let package = Package(
    name: "RetriedSuite",
    platforms: [.macOS(.v13)],
    dependencies: [.package(path: root.path, traits: [])],
    targets: [
        .testTarget(
            name: "RetriedTests",
            dependencies: [.product(name: "TestLedger", package: root.lastPathComponent)]
        )
    ]
)

// swift-tools-version:6.1
import Foundation
import PackageDescription

// A test suite that links the TestLedger library and nothing else: TestLedger's own tests run
// it with the real `swift test` and read what it recorded. The library's package is three
// folders up; SwiftPM names a local package after its folder.
let root = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("../../..").standardizedFileURL

let package = Package(
    name: "ObservedSuite",
    platforms: [.macOS(.v13)],
    dependencies: [.package(path: root.path, traits: [])],
    targets: [
        .testTarget(
            name: "ObservedTests",
            dependencies: [.product(name: "TestLedger", package: root.lastPathComponent)]
        )
    ]
)

// swift-tools-version:6.1
import Foundation
import PackageDescription

// A small app-like package whose tests span the pyramid (unit, integration, UI) and record
// themselves through the TestLedger library, two folders up. SwiftPM names a local package
// after its folder.
let testLedger = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("../..").standardizedFileURL
let recorded: [Target.Dependency] = ["Demo", .product(name: "TestLedger", package: testLedger.lastPathComponent)]

let package = Package(
    name: "Demo",
    platforms: [.macOS(.v13)],
    dependencies: [.package(path: testLedger.path, traits: [])],
    targets: [
        .target(name: "Demo"),
        .testTarget(name: "DemoTests", dependencies: recorded),
        .testTarget(name: "DemoIntegrationTests", dependencies: recorded),
        .testTarget(name: "DemoUITests", dependencies: recorded),
    ]
)

// swift-tools-version:6.1
import PackageDescription

// Forty quick tests, XCTest and Swift Testing, for `testledger record --shard I/N`.
let package = Package(
    name: "ShardedSuite",
    targets: [.testTarget(name: "ShardedTests")]
)

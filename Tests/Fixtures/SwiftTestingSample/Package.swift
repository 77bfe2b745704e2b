// swift-tools-version:6.1
import PackageDescription

/// A tiny package whose tests produce a real Swift Testing event stream for TestLedger's tests.
let package = Package(
    name: "SwiftTestingSample",
    targets: [
        .testTarget(name: "SampleTests")
    ]
)

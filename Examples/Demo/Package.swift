// swift-tools-version:6.0
import PackageDescription

/// A small app-like package whose tests span the pyramid: unit, integration and UI-named.
let package = Package(
    name: "Demo",
    platforms: [.macOS(.v13)],
    targets: [
        .target(name: "Demo"),
        .testTarget(name: "DemoTests", dependencies: ["Demo"]),
        .testTarget(name: "DemoIntegrationTests", dependencies: ["Demo"]),
        .testTarget(name: "DemoUITests", dependencies: ["Demo"]),
    ]
)

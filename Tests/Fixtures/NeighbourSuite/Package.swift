// swift-tools-version:6.1
import PackageDescription

// Swift Testing tests that run side by side in one process, one of which fails when another
// clears the state they share while it runs: `report culprit` and `verify --isolate` name it.
let package = Package(
    name: "NeighbourSuite",
    targets: [.testTarget(name: "NeighbourTests")]
)

// swift-tools-version:6.1
import PackageDescription

// Two test targets over a small graph, for `testledger select` and `record --select`:
// PaymentsTests depends on Payments and on the test-support target Fakes, both of which depend on
// Cart (a diamond), and Payments on the local package Money; CartTests depends on Cart alone.
let package = Package(
    name: "SelectedSuite",
    dependencies: [.package(path: "Vendor/Money")],
    targets: [
        .target(name: "Cart"),
        .target(name: "Payments", dependencies: ["Cart", .product(name: "Money", package: "Money")]),
        .target(name: "Fakes", dependencies: ["Cart"]),
        .testTarget(name: "CartTests", dependencies: ["Cart"]),
        .testTarget(name: "PaymentsTests", dependencies: ["Payments", "Fakes"]),
    ]
)

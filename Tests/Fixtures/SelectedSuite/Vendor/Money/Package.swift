// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Money",
    products: [.library(name: "Money", targets: ["Money"])],
    targets: [.target(name: "Money")]
)

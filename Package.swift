// swift-tools-version:6.1
import PackageDescription

/// What the library does not need: built with the `Tools` trait only.
let tools: TargetDependencyCondition? = .when(traits: ["Tools"])

let package = Package(
    name: "TestLedger",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "testledger", targets: ["TestLedgerCLI"]),
        .library(name: "TestLedger", targets: ["TestLedger"]),
        .library(name: "LedgerCore", targets: ["LedgerCore"]),
        .library(name: "LedgerStore", targets: ["LedgerStore"]),
        .library(name: "LedgerImport", targets: ["LedgerImport"]),
    ],
    // Test targets link the `TestLedger` library with `traits: []`: then their graph is this package
    // and GRDB. The `Tools` trait, on by default here, adds what only the `testledger` command,
    // its server, its uploader and the benchmark need.
    traits: [
        .trait(name: "Tools", description: "The testledger command, its server and uploader, and the benchmark."),
        .default(enabledTraits: ["Tools"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk.git", exact: "0.12.1"),
    ],
    targets: [
        .executableTarget(name: "GenerateEventStream"),
        .plugin(
            name: "GenerateEventStreamPlugin",
            capability: .buildTool(),
            dependencies: ["GenerateEventStream"]
        ),
        .target(
            name: "LedgerCore",
            exclude: ["Events/LedgerEvents.schema"],
            plugins: ["GenerateEventStreamPlugin"]
        ),
        .target(name: "LedgerImport", dependencies: ["LedgerCore"]),
        .target(name: "LedgerDelivery", dependencies: ["LedgerCore"]),
        .executableTarget(name: "EmbedMigrations"),
        .plugin(
            name: "EmbedMigrationsPlugin",
            capability: .buildTool(),
            dependencies: ["EmbedMigrations"]
        ),
        .target(
            name: "LedgerStore",
            dependencies: [
                "LedgerCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            plugins: ["EmbedMigrationsPlugin"]
        ),
        .target(
            name: "LedgerPostgres",
            dependencies: [
                "LedgerCore", "LedgerStore",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: tools),
                .product(name: "Logging", package: "swift-log", condition: tools),
                .product(name: "NIOCore", package: "swift-nio", condition: tools),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: tools),
            ],
            plugins: ["EmbedMigrationsPlugin"]
        ),
        // Webhooks and Slack: what is sent to a team's targets, signed with HMAC-SHA256.
        .target(
            name: "LedgerNotify",
            dependencies: [
                "LedgerCore", "LedgerDelivery", .product(name: "Crypto", package: "swift-crypto", condition: tools),
            ]
        ),
        .target(
            name: "LedgerRecording",
            dependencies: ["LedgerCore", "LedgerImport", "LedgerStore", "LedgerDelivery", "LedgerNotify"]
        ),
        .target(name: "TestLedgerLoader"),
        .target(name: "TestLedger", dependencies: ["LedgerCore", "LedgerDelivery", "LedgerStore", "TestLedgerLoader"]),
        .target(
            name: "LedgerServer",
            dependencies: [
                "LedgerCore", "LedgerDelivery", "LedgerImport", "LedgerStore", "LedgerNotify",
                .product(name: "Hummingbird", package: "hummingbird", condition: tools),
                .product(name: "Logging", package: "swift-log", condition: tools),
                .product(name: "Crypto", package: "swift-crypto", condition: tools),
                .product(name: "CompressNIO", package: "compress-nio", condition: tools),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: tools),
                .product(name: "NIOCore", package: "swift-nio", condition: tools),
                .product(name: "NIOPosix", package: "swift-nio", condition: tools),
            ]
        ),
        .target(name: "TestLedgerArguments"),
        // `testledger mcp`'s side of the Model Context Protocol: its transport and its answers' schemas.
        .target(
            name: "LedgerMCP",
            dependencies: [
                .product(name: "MCP", package: "swift-sdk", condition: tools),
                .product(name: "Logging", package: "swift-log", condition: tools),
            ]
        ),
        .executableTarget(
            name: "TestLedgerCLI",
            dependencies: [
                "TestLedgerArguments", "LedgerMCP", "LedgerNotify",
                "LedgerCore", "LedgerDelivery", "LedgerImport", "LedgerRecording", "LedgerStore", "LedgerPostgres",
                "LedgerServer", .product(name: "ArgumentParser", package: "swift-argument-parser", condition: tools),
                .product(name: "Yams", package: "Yams", condition: tools),
                .product(name: "Hummingbird", package: "hummingbird", condition: tools),
                .product(name: "MCP", package: "swift-sdk", condition: tools),
            ]
        ),
        .executableTarget(
            name: "ledger-benchmark",
            dependencies: [
                // Without the `Tools` trait it builds without the server and PostgreSQL (no `--server`):
                // what CI's release build of the gate needs, in a fraction of the time.
                "LedgerCore", "LedgerDelivery", "LedgerImport", "LedgerStore",
                .target(name: "LedgerPostgres", condition: tools), .target(name: "LedgerServer", condition: tools),
                "LedgerTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: tools),
                .product(name: "NIOCore", package: "swift-nio", condition: tools),
            ],
            path: "Benchmarks/ledger-benchmark"
        ),
        .target(
            name: "LedgerTestSupport",
            dependencies: ["LedgerCore", .product(name: "Hummingbird", package: "hummingbird", condition: tools)],
            path: "Tests/LedgerTestSupport"
        ),
        .testTarget(name: "LedgerCoreTests", dependencies: ["LedgerCore", "LedgerTestSupport"]),
        .testTarget(
            name: "LedgerDeliveryTests", dependencies: ["LedgerDelivery", "LedgerCore", "LedgerTestSupport"]
        ),
        .testTarget(
            name: "TestLedgerTests", dependencies: ["TestLedger", "LedgerCore", "LedgerStore", "LedgerTestSupport"]
        ),
        .testTarget(name: "LedgerImportTests", dependencies: ["LedgerImport", "LedgerCore", "LedgerTestSupport"]),
        .testTarget(
            name: "LedgerStoreTests",
            dependencies: [
                "LedgerStore", "LedgerCore", "LedgerTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
                .target(name: "LedgerPostgres", condition: tools),
            ]
        ),
        .testTarget(
            name: "LedgerPostgresTests",
            dependencies: [
                "LedgerPostgres", "LedgerStore", "LedgerCore", "LedgerTestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: tools),
                .product(name: "NIOCore", package: "swift-nio", condition: tools),
            ]
        ),
        .testTarget(
            name: "LedgerServerTests",
            dependencies: [
                "LedgerServer", "LedgerCore", "LedgerDelivery", "LedgerStore", "LedgerTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird", condition: tools),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: tools),
                .product(name: "CompressNIO", package: "compress-nio", condition: tools),
                .product(name: "NIOCore", package: "swift-nio", condition: tools),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: tools),
            ]
        ),
        .testTarget(
            name: "LedgerRecordingTests",
            dependencies: ["LedgerRecording", "LedgerNotify", "LedgerCore", "LedgerStore", "LedgerTestSupport"]
        ),
        .testTarget(
            name: "TestLedgerCLITests",
            dependencies: [
                "LedgerCore", "LedgerDelivery", "LedgerRecording", "LedgerStore", "LedgerTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: tools),
                .product(name: "Hummingbird", package: "hummingbird", condition: tools),
                .product(name: "NIOCore", package: "swift-nio", condition: tools),
            ]
        ),
    ]
)

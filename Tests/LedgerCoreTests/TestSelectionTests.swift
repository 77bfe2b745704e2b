import Foundation
import LedgerCore
import Testing

/// Selection on values: the package graph as SwiftPM describes it, what changed, and the runs that vouch.
@Suite struct TestSelectionTests {
    /// Cart ← Payments ← PaymentsTests and Cart ← Fakes ← PaymentsTests (a diamond through a
    /// test-support target), Payments ← Money (a local package), CartTests ← Cart, and the
    /// executable `cart-cli` that tests may run without naming it.
    static let root = #"""
        {"name": "Shop", "path": "/repo/App", "dependencies": [
            {"identity": "money", "type": "fileSystem", "path": "/repo/Vendor/Money"},
            {"identity": "swift-numerics", "type": "sourceControl", "url": "https://github.com/apple/swift-numerics"}],
         "products": [],
         "targets": [
            {"name": "Cart", "c99name": "Cart", "path": "Sources/Cart", "type": "library"},
            {"name": "Payments", "c99name": "Payments", "path": "Sources/Payments", "type": "library",
             "target_dependencies": ["Cart"], "product_dependencies": ["Money", "Numerics"]},
            {"name": "Fakes", "c99name": "Fakes", "path": "Sources/Fakes", "type": "library",
             "target_dependencies": ["Cart"]},
            {"name": "cart-cli", "c99name": "cart_cli", "path": "Sources/cart-cli", "type": "executable"},
            {"name": "CartTests", "c99name": "CartTests", "path": "Tests/CartTests", "type": "test",
             "target_dependencies": ["Cart"]},
            {"name": "PaymentsTests", "c99name": "PaymentsTests", "path": "Tests/PaymentsTests", "type": "test",
             "target_dependencies": ["Payments", "Fakes"]}]}
        """#
    static let money = #"""
        {"name": "Money", "path": "/repo/Vendor/Money", "dependencies": [],
         "products": [{"name": "Money", "targets": ["Money"], "type": {"library": ["automatic"]}}],
         "targets": [{"name": "Money", "c99name": "Money", "path": "Sources/Money", "type": "library"},
                     {"name": "Cart", "c99name": "Cart", "path": "Sources/Cart", "type": "library"},
                     {"name": "MoneyTests", "c99name": "MoneyTests", "path": "Tests/MoneyTests", "type": "test",
                      "target_dependencies": ["Money"]}]}
        """#

    static func graph() throws -> PackageGraph {
        PackageGraph(
            root: try PackageDescription(json: Data(root.utf8)),
            locals: [try PackageDescription(json: Data(money.utf8))],
            repository: "/repo")
    }

    static let hashes = ["CartTests": "c1", "PaymentsTests": "p1"]
    static let vouched = Vouch(run: "8f3c2a10-0000-4000-8000-000000000000", revision: "1a2b3c4d5e", at: 1_000)
    static let vouches = ["CartTests": vouched, "PaymentsTests": vouched]

    static func select(_ files: [String], ignore: [String] = [], vouches: [String: Vouch] = vouches) throws
        -> TestSelection
    {
        TestSelection(
            graph: try graph(), changedFiles: files, ignore: ignore.compactMap(PathPattern.init), hashes: hashes,
            vouches: vouches)
    }

    static func running(_ selection: TestSelection) -> [String] {
        selection.targets.filter(\.runs).map(\.target)
    }

    @Test func theGraphHasLocalPackagesAndEveryPathOfADiamond() throws {
        let graph = try Self.graph()
        #expect(
            graph.closure(of: "PaymentsTests") == ["PaymentsTests", "Payments", "Fakes", "Cart", "Money", "cart-cli"])
        #expect(graph.closure(of: "CartTests") == ["CartTests", "Cart", "cart-cli"])
        #expect(graph.targets["Money"]?.path == "Vendor/Money/Sources/Money")
        #expect(graph.testTargets.map(\.name) == ["CartTests", "PaymentsTests"], "swift test runs the root's only")
        #expect(
            graph.targets["Cart"]?.path == "App/Sources/Cart", "a local package's Cart takes no root target's place")
        #expect(graph.targets(holding: "App/Sources/Cart/Cart.swift") == ["Cart"])
        #expect(graph.targets(holding: "App/Sources/CartExtras/Extra.swift").isEmpty, "a prefix is not a folder")
        #expect(graph.manifest("App/Package.swift") == "App")
        #expect(graph.manifest("Vendor/Money/Package@swift-6.0.swift") == "Vendor/Money")
        #expect(graph.manifest("App/Sources/Cart/Package.swift") == nil)
    }

    @Test func whatTheProjectSaysItsTestsUseReplacesTheExecutablesForAll() throws {
        let graph = PackageGraph(
            root: try PackageDescription(json: Data(Self.root.utf8)),
            locals: [try PackageDescription(json: Data(Self.money.utf8))], repository: "/repo",
            uses: ["PaymentsTests": ["cart-cli"], "CartTests": ["Money"]])
        #expect(graph.closure(of: "CartTests") == ["CartTests", "Cart", "Money"], "no executable it does not name")
        #expect(graph.closure(of: "PaymentsTests").contains("cart-cli"))
        let none = PackageGraph(
            root: try PackageDescription(json: Data(Self.root.utf8)), repository: "/repo", uses: [:])
        #expect(none.closure(of: "PaymentsTests").contains("cart-cli") == false)
    }

    @Test func aChangeRunsTheTargetsThatReachItThroughAnyPath() throws {
        let cart = try Self.select(["App/Sources/Cart/Cart.swift"])
        #expect(Self.running(cart) == ["CartTests", "PaymentsTests"])
        #expect(
            cart.targets.map(\.reason)
                == Array(repeating: "depends on Cart: App/Sources/Cart/Cart.swift changed", count: 2))
        let test = try Self.select(["App/Tests/CartTests/CartTests.swift"])
        #expect(test.targets.first?.reason == "App/Tests/CartTests/CartTests.swift changed")
        let fakes = try Self.select(["App/Sources/Fakes/FakeCart.swift"])
        #expect(Self.running(fakes) == ["PaymentsTests"])
        let cartTests = try #require(fakes.targets.first)
        #expect(!cartTests.runs && cartTests.vouchedBy == Self.vouched)
        #expect(cartTests.reason == "its code did not change since run 8f3… (1a2b3c4)")
        #expect(Self.running(try Self.select(["Vendor/Money/Sources/Money/Money.swift"])) == ["PaymentsTests"])
        #expect(Self.running(try Self.select(["App/Tests/CartTests/CartTests.swift"])) == ["CartTests"])
        #expect(
            Self.running(try Self.select(["App/Sources/cart-cli/main.swift"])) == ["CartTests", "PaymentsTests"],
            "tests run the package's executables without naming them")
    }

    @Test func anUnaffectedTargetRunsWithoutAVouchingRun() throws {
        let selection = try Self.select(["App/Sources/Fakes/FakeCart.swift"], vouches: [:])
        #expect(Self.running(selection) == ["CartTests", "PaymentsTests"])
        #expect(selection.targets.first?.reason.hasPrefix("no complete, passing run with its hash") == true)
        #expect(selection.everything == nil)
    }

    @Test(arguments: [
        ("App/Package.swift", "App/Package.swift changed"),
        ("App/Package.resolved", "App/Package.resolved changed"),
        ("Vendor/Money/Package.swift", "Vendor/Money/Package.swift changed"),
        ("Scripts/build.sh", "Scripts/build.sh changed and belongs to no target"),
    ])
    func aManifestOrAFileOfNoTargetRunsEverything(file: String, reason: String) throws {
        let selection = try Self.select(["App/Sources/Fakes/FakeCart.swift", file], ignore: ["*.md", "docs/**"])
        #expect(selection.everything?.hasPrefix(reason) == true, "\(selection.everything ?? "nil")")
        #expect(selection.runsEverything && selection.arguments(for: .swiftTest).isEmpty)
    }

    @Test func ignoredFilesAndANoMergeBaseAreJudgedAsSaid() throws {
        let ignored = try Self.select(["README.md", "docs/guide/intro.html"], ignore: ["*.md", "docs/**"])
        #expect(ignored.everything == nil && ignored.runsNothing)
        #expect(ignored.commandArguments(for: .swiftTest) == ["--skip", "."])
        #expect(
            ignored.commandArguments(for: .xcodebuild) == ["-skip-testing:CartTests", "-skip-testing:PaymentsTests"])
        let noBase = TestSelection(
            graph: try Self.graph(), changedFiles: [], everything: "no merge base with main", hashes: Self.hashes,
            vouches: Self.vouches)
        #expect(noBase.runsEverything && noBase.everything == "no merge base with main")
    }

    @Test func keptTestsRunInsideSkippedTargets() throws {
        var selection = try Self.select(["App/Sources/Fakes/FakeCart.swift"])
        let reasons = TestSelection.mustRun(
            [
                "CartTests.CartTests/testNew", "CartTests.CartTests/testFlaky", "CartTests.CartTests/testOld",
                "CartTests.CartTests/testCritical",
            ],
            known: [
                "CartTests.CartTests/testFlaky", "CartTests.CartTests/testOld", "CartTests.CartTests/testCritical",
            ],
            base: "main", troubled: ["CartTests.CartTests/testFlaky"], unskippable: ["*/testCritical"])
        #expect(
            reasons == [
                "CartTests.CartTests/testNew": "new to main",
                "CartTests.CartTests/testFlaky": "failed or flaky within the window",
                "CartTests.CartTests/testCritical": "unskippable (*/testCritical)",
            ])
        selection.keep(reasons.merging(["PaymentsTests.PaymentsTests/x()": "new to main"]) { a, _ in a })
        #expect(
            selection.alwaysRun.map(\.test) == [
                "CartTests.CartTests/testCritical", "CartTests.CartTests/testFlaky", "CartTests.CartTests/testNew",
            ], "a running target's tests need no keeping")
        #expect(selection.runs("CartTests.CartTests/testNew") && !selection.runs("CartTests.CartTests/testOld"))
        #expect(selection.arguments(for: .swiftTest).prefix(2) == ["--filter", #"^PaymentsTests(/|\.|$)"#])
        #expect(selection.arguments(for: .swiftTest).count == 8)
        #expect(selection.arguments(for: .xcodebuild).first == "-only-testing:PaymentsTests")
        #expect(selection.arguments(for: .xcodebuild).last == "-only-testing:CartTests/CartTests/testNew")
    }

    @Test func theHashCoversTheTargetItsDependenciesAndTheBuild() throws {
        let graph = try Self.graph()
        let files: [String: [String: String]] = [
            "Cart": ["Cart.swift": "a"], "Fakes": ["FakeCart.swift": "b"], "Payments": ["Payments.swift": "c"],
            "CartTests": ["CartTests.swift": "d"], "PaymentsTests": ["PaymentsTests.swift": "e"],
            "Money": ["M.swift": "f"],
        ]
        let shared = ["resolved", "swift 6.3", "\u{0}debug"]
        let base = TargetHashes.hashes(graph: graph, files: files, shared: shared)
        var fakes = files
        fakes["Fakes"] = ["FakeCart.swift": "b2"]
        let changed = TargetHashes.hashes(graph: graph, files: fakes, shared: shared)
        #expect(changed["CartTests"] == base["CartTests"] && changed["PaymentsTests"] != base["PaymentsTests"])
        var renamed = files
        renamed["Cart"] = ["Cart2.swift": "a"]
        #expect(TargetHashes.hashes(graph: graph, files: renamed, shared: shared)["CartTests"] != base["CartTests"])
        for other in [
            ["resolved2", "swift 6.3", "\u{0}debug"], ["resolved", "swift 6.2", "\u{0}debug"],
            ["resolved", "swift 6.3", "\u{0}release"],
        ] {
            let hashes = TargetHashes.hashes(graph: graph, files: files, shared: other)
            #expect(hashes["CartTests"] != base["CartTests"] && hashes["PaymentsTests"] != base["PaymentsTests"])
        }
        #expect(base["CartTests"]?.count == 32)
    }

    @Test func theRunStoresWhatItLeftOutAndEachTargetsHash() throws {
        var selection = try Self.select(["App/Sources/Fakes/FakeCart.swift"])
        selection.keep(["CartTests.CartTests/testNew": "new to main"])
        let listed = [
            "CartTests.CartTests/testOld", "CartTests.CartTests/testNew", "PaymentsTests.PaymentsTests/charges()",
        ]
        let passed: Set = ["CartTests.CartTests/testNew", "PaymentsTests.PaymentsTests/charges()"]
        let events = selection.events(at: 5, listed: listed, passed: passed, observing: false)
        #expect(
            events == [
                .testStart(.init(at: 5, test: "CartTests.CartTests/testOld")),
                .testEnd(
                    .init(
                        at: 5, test: "CartTests.CartTests/testOld", outcome: .skipped, duration: 0,
                        message: "not-affected")),
                .targetRun(
                    .init(
                        at: 5, target: "CartTests", hash: "c1", tests: 2, passed: 1, vouchedBy: Self.vouched.run,
                        skipped: true)),
                .targetRun(.init(at: 5, target: "PaymentsTests", hash: "p1", tests: 1, passed: 1)),
            ])
        let overloads = selection.events(
            at: 5, listed: ["PaymentsTests.PaymentsTests/total(of:)"],
            passed: ["PaymentsTests.PaymentsTests/total(of:)"], failed: ["PaymentsTests.PaymentsTests/total(_:)"],
            observing: false)
        #expect(
            overloads.last == .targetRun(.init(at: 5, target: "PaymentsTests", hash: "p1", tests: 1, passed: 0)),
            "an overload that failed beside one that passed")
        let observed = selection.events(at: 5, listed: listed, passed: Set(listed), observing: true)
        #expect(
            observed == [
                .targetRun(
                    .init(at: 5, target: "CartTests", hash: "c1", tests: 2, passed: 2, vouchedBy: Self.vouched.run)),
                .targetRun(.init(at: 5, target: "PaymentsTests", hash: "p1", tests: 1, passed: 1)),
            ])
    }

    @Test func theSelectionReportCountsMissedFailuresAndSavedTime() {
        let observed = SelectionReport.StoredRun(
            run: "o", revision: nil, at: 2,
            targets: [("CartTests", "v", false), ("PaymentsTests", nil, false)],
            attempts: [
                ("CartTests.CartTests/a", .failed, 1), ("CartTests.CartTests/a", .passed, 1),
                ("CartTests.CartTests/b", .failed, 2), ("PaymentsTests.PaymentsTests/c()", .failed, 4),
            ], vouchingSeconds: [:])
        let selected = SelectionReport.StoredRun(
            run: "s", revision: nil, at: 1, targets: [("CartTests", "v", true), ("PaymentsTests", nil, false)],
            attempts: [("PaymentsTests.PaymentsTests/c()", .passed, 4)], vouchingSeconds: ["CartTests": 6])
        let full = SelectionReport.StoredRun(
            run: "f", revision: nil, at: 0, targets: [("CartTests", nil, false)], attempts: [], vouchingSeconds: [:])
        let report = SelectionReport([observed, selected, full])
        #expect(report.runs.map(\.run) == ["o", "s"])
        #expect(report.runs[0].missedFailures == ["CartTests.CartTests/b"], "a retried pass is no miss")
        #expect(report.runs[0].savedSeconds == 4 && report.runs[0].testSeconds == 8)
        #expect(
            report.runs[1].mode == .selected && report.runs[1].savedSeconds == 6 && report.runs[1].testSeconds == 10)
        #expect(report.missedFailures == 1 && report.savedSeconds == 10 && report.savedShare == 10.0 / 18)
        #expect(SelectionReport.c99Name("cart-cli") == "cart_cli" && SelectionReport.c99Name("3D") == "_3D")
    }
}

import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

/// Builds the `testledger-bacon` gem from a copy of Formatters/bacon, installs it into a folder of
/// its own, deletes the copy, and runs the real `bacon` on specs that load the installed gem,
/// with the built `testledger` found in `PATH`; then reads the store back.
@Suite(
    .enabled(if: InstalledTools.bacon != nil && InstalledTools.executable("gem") != nil, "needs Debian's ruby-bacon"))
struct BaconGemTests {
    static let gem = InstalledTools.executable("gem")
    static let source = CLI.packageRoot.appending(path: "Formatters/bacon")

    /// Two passing specs and a failing one.
    static let specs = #"""
        describe 'Cart' do
          it 'starts empty' do
            [].size.should == 0
          end

          it 'counts one item' do
            [1].size.should == 1
          end

          it 'totals the prices' do
            (2 + 2).should == 5
          end
        end
        """#

    /// What `gem` and `bacon` need to find the gem installed in `gems` (and Ruby's own gems).
    static func gemEnvironment(_ gems: String) async throws -> [String: String] {
        let system = try await ChildProcess.runTool([try #require(gem), "env", "gempath"])
        #expect(system.status == 0, "\(system.stderr)")
        return [
            "GEM_HOME": gems, "GEM_PATH": gems + ":" + system.stdout.trimmingCharacters(in: .whitespacesAndNewlines),
        ]
    }

    /// `gem build` in a copy of Formatters/bacon, `gem install --local` into `cli`'s gems folder,
    /// then the copy is deleted: the installed gem must stand alone. Returns the gem's environment.
    func install(_ cli: CLI, version: String = "9.8.7") async throws -> [String: String] {
        let copy = cli.directory.url.appending(path: "source")
        try FileManager.default.copyItem(at: Self.source, to: copy)
        let gem = try #require(Self.gem)
        let environment = try await Self.gemEnvironment(cli.directory.path("gems"))
        let built = try await ChildProcess.runTool(
            [gem, "build", "testledger-bacon.gemspec"], environment: ["TESTLEDGER_VERSION": version], in: copy)
        #expect(built.status == 0, "\(built.stdout)\(built.stderr)")
        let package = copy.appending(path: "testledger-bacon-\(version).gem").path
        #expect(FileManager.default.fileExists(atPath: package), "the version comes from TESTLEDGER_VERSION")
        let installed = try await ChildProcess.runTool(
            [gem, "install", "--local", "--install-dir", cli.directory.path("gems"), "--no-document", package],
            environment: environment, in: cli.directory.url)
        #expect(installed.status == 0, "\(installed.stdout)\(installed.stderr)")
        try FileManager.default.removeItem(at: copy)
        return environment
    }

    /// `bacon ARGUMENTS` in `cli`'s project folder, the built `testledger` first in `PATH`.
    func bacon(_ arguments: [String], _ cli: CLI, gems: [String: String]) async throws -> CLI.Output {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return try await ChildProcess.runTool(
            [try #require(InstalledTools.bacon)] + arguments,
            environment: gems.merging([
                "PATH": CLI.binary.deletingLastPathComponent().path + ":" + path, "TESTLEDGER_DB": cli.database,
            ]) { $1 }, in: cli.directory.url.appending(path: "Shop"))
    }

    /// The latest run's tests, `<suite>/<name>` to outcome, as `report run --format ctrf` lists them.
    func outcomes(_ cli: CLI) async throws -> [String: String] {
        let output = try await cli.run(["report", "run", "--format", "ctrf"])
        #expect(output.status == 0, "\(output.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let tests = try #require((document["results"] as? [String: Any])?["tests"] as? [[String: Any]])
        return Dictionary(
            tests.map { test in
                let suite = (test["suite"] as? [String])?.joined(separator: " ") ?? ""
                return ("\(suite)/\(test["name"] as? String ?? "")", test["status"] as? String ?? "")
            }, uniquingKeysWith: { first, _ in first })
    }

    /// Checks that `cli`'s store holds one run of exactly the three specs, with their outcomes.
    func expectRecorded(_ cli: CLI, _ output: CLI.Output) async throws {
        #expect(output.status == 1, "Bacon exits 1 when a spec failed: \(output.stderr)")
        #expect(
            output.stdout.hasPrefix("Cart\n  - starts empty\n  - counts one item\n  - totals the prices [FAILED]\n"))
        #expect(output.stdout.hasSuffix("3 specifications (3 requirements), 1 failures, 0 errors\n"))
        #expect(!output.stderr.contains("testledger"), "\(output.stderr)")
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.count == 1)
        #expect(runs.first?["source"] as? String == "bacon")
        #expect(runs.first?["project"] as? String == "Shop")
        #expect(runs.first?["tests"] as? Int == 3 && runs.first?["failed"] as? Int == 1)
        await #expect(
            try outcomes(cli) == [
                "Cart/starts empty": "passed", "Cart/counts one item": "passed", "Cart/totals the prices": "failed",
            ])
        let failed = try #require(try await cli.json(["show", "Cart/totals the prices"]) as? [String: Any])
        let issue = try #require((failed["issues"] as? [[String: Any]])?.first)
        #expect(issue["message"] as? String == "4.==(5) failed")
        #expect(issue["file"] as? String == "spec/cart_spec.rb")
        #expect(issue["line"] as? Int == 12)
    }

    @Test func inACheckoutTheVersionIsTheOneTestledgerPrints() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let package = cli.directory.path("checkout.gem")
        let built = try await ChildProcess.runTool(
            [try #require(Self.gem), "build", "-C", Self.source.path, "testledger-bacon.gemspec", "--output", package])
        #expect(built.status == 0, "\(built.stdout)\(built.stderr)")
        #expect(built.stdout.contains("Version: \(TestLedgerVersion.current)\n"), "\(built.stdout)")
        #expect(FileManager.default.fileExists(atPath: package))
    }

    @Test func aSpecFileThatRequiresTheInstalledGemRecordsUnderPlainBacon() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let gems = try await install(cli)
        try cli.directory.write("Shop/spec/cart_spec.rb", "require 'testledger/bacon'\n" + Self.specs)
        try await expectRecorded(cli, try await bacon(["spec/cart_spec.rb"], cli, gems: gems))
    }

    @Test func baconLoadsTheInstalledGemWithDashR() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let gems = try await install(cli)
        try cli.directory.write("Shop/spec/cart_spec.rb", "\n" + Self.specs)
        let output = try await bacon(
            ["-r", "testledger/bacon", "-o", "TestLedger", "spec/cart_spec.rb"], cli, gems: gems)
        try await expectRecorded(cli, output)
    }

    /// The gem takes over SpecDox, Bacon's default output, only: TAP stays TAP.
    @Test func anotherOutputThanSpecDoxIsLeftAlone() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let gems = try await install(cli)
        try cli.directory.write("Shop/spec/cart_spec.rb", "require 'testledger/bacon'\n" + Self.specs)
        let tap = try await bacon(["-p", "spec/cart_spec.rb"], cli, gems: gems)
        #expect(tap.status == 1 && tap.stdout.hasPrefix("ok 1   - starts empty\n"), "\(tap.stdout)\(tap.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.database), "nothing recorded")
    }

    /// A stand-in for RubyMotion's project configuration (RubyMotion builds on macOS only): in a
    /// Rakefile, requiring the gem adds the installed module to the spec app's files, after
    /// RubyMotion's own and before the project's helpers and specs, and loads nothing else.
    @Test(.enabled(if: InstalledTools.ruby != nil, "ruby is not installed"))
    func inARubyMotionRakefileTheGemJoinsTheSpecFiles() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let gems = try await install(cli)
        let rakefile = try cli.directory.write(
            "Rakefile.rb",
            #"""
            module Motion
              module Project
                class Config
                  def specs_dir
                    './spec'
                  end

                  def spec_files
                    @spec_files ||= ['/rubymotion/spec.rb', './spec/helpers/cart.rb', './spec/cart_spec.rb']
                  end
                end

                module App
                  def self.setup
                    yield(@config ||= Config.new)
                  end
                end
              end
            end
            require 'testledger/bacon'
            require 'testledger/bacon'
            puts Motion::Project::App.setup(&:spec_files)
            puts defined?(Bacon).inspect
            """#)
        let output = try await ChildProcess.runTool(
            [try #require(InstalledTools.ruby), rakefile.path], environment: gems, in: cli.directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(output.stdout)")
        #expect(
            lines.first == "/rubymotion/spec.rb"
                && lines.dropFirst(2) == ["./spec/helpers/cart.rb", "./spec/cart_spec.rb", "nil"])
        let module = try #require(lines.dropFirst().first)
        #expect(module.hasSuffix("/gems/testledger-bacon-9.8.7/testledger.rb"), "the installed gem's module")
        #expect(FileManager.default.fileExists(atPath: module))
    }
}

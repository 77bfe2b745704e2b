import Foundation
import Hummingbird
import LedgerTestSupport
import Testing

/// `Scripts/install.sh` under dash and bash, and `action.yml`'s step, against a stand-in for
/// GitHub's release downloads on 127.0.0.1: a verified archive installs and runs; a tampered
/// archive, a SHA256SUMS without the archive's line, a missing SHA256SUMS and a cut download
/// each exit non-zero with the reason and leave nothing installed, nor any temporary file.
@Suite(.enabled(if: InstalledTools.executable("dash") != nil, "needs dash (Debian's dash)"))
struct InstallScriptTests {
    static let script = CLI.packageRoot.appending(path: "Scripts/install.sh").path
    /// The archive's `OS-ARCH`, as the script picks it on this machine.
    static let platform: String = {
        #if os(macOS)
            "macos-universal"
        #elseif arch(arm64)
            "linux-aarch64"
        #else
            "linux-x86_64"
        #endif
    }()
    static let archive = "testledger-1.2.3-\(platform).tar.gz"

    // MARK: Installing

    @Test(arguments: ["dash", "bash"])
    func aVerifiedArchiveInstallsAndRuns(shell: String) async throws {
        let release = try await Release()
        defer { release.directory.remove() }
        let attempt = try await release.install(shell, release.assets())
        #expect(attempt.status == 0, "\(attempt.stderr)")
        let binary = release.directory.path("bin/testledger")
        #expect(attempt.stdout == "installed testledger 1.2.3 to \(binary)\n")
        #expect(attempt.stderr.contains("\(release.directory.path("bin")) is not on PATH"), "\(attempt.stderr)")
        #expect(attempt.installed == ["testledger"], "nothing staged is left beside it")
        let ran = try await ChildProcess.run(URL(fileURLWithPath: binary), ["--version"])
        #expect(ran.stdout == "testledger 1.2.3\n")
    }

    @Test(arguments: ["dash", "bash"])
    func withoutAVersionTheNewestReleaseInstalls(shell: String) async throws {
        let release = try await Release()
        defer { release.directory.remove() }
        let attempt = try await release.install(shell, release.assets(), version: nil)
        #expect(attempt.status == 0, "\(attempt.stderr)")
        #expect(attempt.stdout.hasPrefix("installed testledger 1.2.3 to "), "\(attempt.stdout)")
        #expect(attempt.installed == ["testledger"])
        #expect(attempt.requests.first == "/releases/download/latest/SHA256SUMS")
    }

    @Test func helpNamesTheVariables() async throws {
        let output = try await ChildProcess.runTool(["dash", Self.script, "--help"])
        #expect(output.status == 0)
        for variable in ["TESTLEDGER_VERSION", "TESTLEDGER_INSTALL_DIR", "TESTLEDGER_DOWNLOAD_URL"] {
            #expect(output.stdout.contains(variable))
        }
    }

    // MARK: Refusing

    @Test(arguments: ["dash", "bash"])
    func aBinaryThatDoesNotRunHereIsNotInstalled(shell: String) async throws {
        let release = try await Release()
        defer { release.directory.remove() }
        // Its checksum is right: only running it can tell (a glibc build on musl, a missing library).
        let broken = try await release.makeArchive(says: "cannot run", exiting: 127)
        let assets = [
            "v1.2.3/\(Self.archive)": Asset.file(broken.data), "v1.2.3/SHA256SUMS": .file(Data(broken.sums.utf8)),
        ]
        try await release.expectRefusal(shell, assets, saying: "does not run here", "nothing was installed")
    }

    /// Without TESTLEDGER_DOWNLOAD_URL the script asks GitHub's own addresses: the newest release's
    /// SHA256SUMS at releases/latest/download, a version's at releases/download/vVERSION (read by a
    /// curl that notes what it was asked and answers 404).
    @Test func theDefaultAddressesAreGitHubsReleases() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let curl = try directory.write("stubs/curl", "#!/bin/sh\necho \"$@\" >> \"$CURL_LOG\"\nexit 22\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: curl.path)
        let path = directory.path("stubs") + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        func asked(_ environment: [String: String]) async throws -> String {
            let log = directory.path("curl-\(UUID().uuidString).log")
            let ran = try await ChildProcess.runTool(
                ["sh", Self.script],
                environment: environment.merging([
                    "PATH": path, "CURL_LOG": log, "TESTLEDGER_INSTALL_DIR": directory.path("bin"),
                ]) { $1 })
            #expect(ran.status != 0 && ran.stderr.contains("no such file?"), "\(ran.stderr)")
            return (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        }
        let newest = try await asked([:])
        #expect(
            newest.hasSuffix(" https://github.com/OWNER/testledger/releases/latest/download/SHA256SUMS\n"), "\(newest)")
        let pinned = try await asked(["TESTLEDGER_REPOSITORY": "acme/ledger", "TESTLEDGER_VERSION": "1.2.3"])
        #expect(pinned.hasSuffix(" https://github.com/acme/ledger/releases/download/v1.2.3/SHA256SUMS\n"), "\(pinned)")
    }

    @Test(arguments: ["dash", "bash"])
    func aTamperedArchiveIsDeletedAndNothingInstalled(shell: String) async throws {
        let release = try await Release()
        defer { release.directory.remove() }
        // A well-formed archive of the same name, so only the checksum can tell.
        let tampered = try await release.makeArchive(says: "tampered")
        var assets = release.assets()
        assets["v1.2.3/\(Self.archive)"] = .file(tampered.data)
        try await release.expectRefusal(shell, assets, saying: "checksum mismatch for \(Self.archive)")
    }

    @Test(arguments: ["dash", "bash"])
    func aSHA256SUMSWithoutTheArchivesLineInstallsNothing(shell: String) async throws {
        let release = try await Release()
        defer { release.directory.remove() }
        var assets = release.assets()
        let otherPlatform = release.sums.replacingOccurrences(of: Self.platform, with: "plan9-mips")
        assets["v1.2.3/SHA256SUMS"] = .file(Data(otherPlatform.utf8))
        try await release.expectRefusal(shell, assets, saying: "v1.2.3/SHA256SUMS has no line for \(Self.archive)")
    }

    @Test(arguments: ["dash", "bash"])
    func aMissingSHA256SUMSInstallsNothing(shell: String) async throws {
        let release = try await Release()
        defer { release.directory.remove() }
        var assets = release.assets()
        assets["v1.2.3/SHA256SUMS"] = nil
        try await release.expectRefusal(
            shell, assets, saying: "could not download ", "/v1.2.3/SHA256SUMS: the server answered with an error")
    }

    @Test(arguments: ["dash", "bash"])
    func aCutDownloadIsDeletedAndNothingInstalled(shell: String) async throws {
        let release = try await Release()
        defer { release.directory.remove() }
        var assets = release.assets()
        assets["v1.2.3/\(Self.archive)"] = .cut(release.data)
        try await release.expectRefusal(shell, assets, saying: "\(Self.archive): the download was cut short")
    }

    /// The same checks when only wget and shasum are there: curl and sha256sum are hidden.
    @Test(
        .enabled(
            if: InstalledTools.executable("wget") != nil && InstalledTools.executable("shasum") != nil,
            "needs wget (Debian's wget) and shasum (perl)"))
    func wgetAndShasumDoTheSameWork() async throws {
        let release = try await Release()
        defer { release.directory.remove() }
        let path = try release.pathWithout(["curl", "sha256sum"])
        let good = try await release.install("dash", release.assets(), path: path)
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.installed == ["testledger"])

        let other = try await Release()
        defer { other.directory.remove() }
        let tampered = try await other.makeArchive(says: "tampered")
        for (asset, reason) in [
            (Asset.file(tampered.data), "checksum mismatch for \(Self.archive)"),
            (.cut(other.data), "\(Self.archive): the connection failed or the download was cut short"),
        ] {
            var assets = other.assets()
            assets["v1.2.3/\(Self.archive)"] = asset
            try await other.expectRefusal("dash", assets, saying: reason, path: path)
        }
    }

    // MARK: The action

    /// The action's step, run as GitHub runs it (`sh -e`), with the variables a runner sets.
    @Test func theActionInstallsIntoTheToolCacheOnceAndPutsItOnPath() async throws {
        let release = try await Release()
        defer { release.directory.remove() }
        let step = try Self.actionStep()
        let cache = release.directory.path("toolcache")
        let folder = "\(cache)/testledger/1.2.3/x64"
        let stand = StandInReleases(assets: release.assets())
        let (first, second, requests) = try await stand.serve { address in
            // VERSION and INSTALL are the step's `env:` in action.yml.
            let environment = [
                "VERSION": "latest", "INSTALL": Self.script, "RUNNER_TOOL_CACHE": cache, "RUNNER_ARCH": "X64",
                "GITHUB_PATH": release.directory.path("github_path"),
                "GITHUB_OUTPUT": release.directory.path("github_output"),
                "TESTLEDGER_DOWNLOAD_URL": "\(address)/releases/download",
            ]
            let first = try await ChildProcess.runTool(["dash", "-e", "-c", step], environment: environment)
            let asked = await stand.log.paths.count
            let second = try await ChildProcess.runTool(
                ["dash", "-e", "-c", step], environment: environment.merging(["VERSION": "v1.2.3"]) { $1 })
            return (first, second, await stand.log.paths.count - asked)
        }
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "installed testledger 1.2.3 to \(folder)/testledger\n")
        #expect(!first.stderr.contains("not on PATH"), "\(first.stderr)")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout == "testledger 1.2.3 is in the tool cache: \(folder)/testledger\n")
        #expect(requests == 0, "a pinned version already in the tool cache is not downloaded again")
        let outputs = try String(contentsOfFile: release.directory.path("github_output"), encoding: .utf8)
        #expect(outputs == String(repeating: "version=1.2.3\npath=\(folder)/testledger\n", count: 2))
        let paths = try String(contentsOfFile: release.directory.path("github_path"), encoding: .utf8)
        #expect(paths == "\(folder)\n\(folder)\n")
        let ran = try await ChildProcess.run(URL(fileURLWithPath: "\(folder)/testledger"), [])
        #expect(ran.stdout == "testledger 1.2.3\n")
    }

    /// The `run: |` block of action.yml's step, unindented.
    static func actionStep() throws -> String {
        let action = try String(contentsOf: CLI.packageRoot.appending(path: "action.yml"), encoding: .utf8)
        let lines = action.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "run: |" })
        let indent = String(repeating: " ", count: lines[start].prefix { $0 == " " }.count + 2)
        return lines[(start + 1)...].prefix { $0.hasPrefix(indent) || $0.isEmpty }
            .map { $0.dropFirst(indent.count) }.joined(separator: "\n")
    }
}

// MARK: Fixtures

extension InstallScriptTests {
    typealias Asset = StandInReleases.Asset

    /// Release 1.2.3 as `Scripts/release.sh` lays it out, made small: a real tar.gz whose
    /// `bin/testledger` is a shell script printing `testledger 1.2.3`, and its SHA256SUMS.
    struct Release {
        let directory: TemporaryDirectory
        let data: Data
        let sums: String
        var name: String { InstallScriptTests.archive }

        init() async throws {
            directory = try TemporaryDirectory()
            let made = try await Self.makeArchive(says: "testledger 1.2.3", in: directory)
            data = made.data
            // Listed around the archive's line, as release.sh lists them.
            let debug = made.sums.replacingOccurrences(of: ".tar.gz", with: "-debug.tar.gz")
            sums = debug + made.sums + "\(String(repeating: "0", count: 64))  testledger.artifactbundle.zip\n"
        }

        /// Every file of the release (the archive and SHA256SUMS), by `vVERSION/NAME`.
        func assets() -> [String: Asset] {
            ["v1.2.3/\(name)": .file(data), "v1.2.3/SHA256SUMS": .file(Data(sums.utf8))]
        }

        /// Another archive of the same name whose binary prints `text`.
        func makeArchive(says text: String, exiting status: Int = 0) async throws -> (data: Data, sums: String) {
            try await Self.makeArchive(says: text, exiting: status, in: directory)
        }

        static func makeArchive(says text: String, exiting status: Int = 0, in directory: TemporaryDirectory)
            async throws -> (data: Data, sums: String)
        {
            let top = InstallScriptTests.archive.replacingOccurrences(of: ".tar.gz", with: "")
            let folder = directory.url.appending(path: "build-\(UUID().uuidString)")
            let binary = try directory.write(
                "\(folder.lastPathComponent)/\(top)/bin/testledger", "#!/bin/sh\necho '\(text)'\nexit \(status)\n")
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: binary.path)
            try directory.write("\(folder.lastPathComponent)/\(top)/LICENSE", "Apache License 2.0\n")
            let tarred = try await ChildProcess.run(
                URL(fileURLWithPath: "/usr/bin/tar"), ["-czf", "\(top).tar.gz", top], in: folder)
            #expect(tarred.status == 0, "\(tarred.stderr)")
            let summed = try await ChildProcess.runTool(["sha256sum", "\(top).tar.gz"], in: folder)
            #expect(summed.status == 0, "\(summed.stderr)")
            return (try Data(contentsOf: folder.appending(path: "\(top).tar.gz")), summed.stdout)
        }

        /// What one run of `install.sh` printed, left in `bin/` (nothing when it is absent) and asked for.
        struct Attempt {
            var status: Int32
            var stdout: String
            var stderr: String
            var installed: [String]
            var requests: [String]
        }

        /// Runs `install.sh` with `shell` against a stand-in serving `assets`, into `bin/` here.
        func install(_ shell: String, _ assets: [String: Asset], version: String? = "1.2.3", path: String? = nil)
            async throws -> Attempt
        {
            let temporary = directory.path("tmp-\(UUID().uuidString)")
            try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
            let stand = StandInReleases(assets: assets)
            let output = try await stand.serve { address in
                var environment = [
                    "TESTLEDGER_DOWNLOAD_URL": "\(address)/releases/download",
                    "TESTLEDGER_INSTALL_DIR": directory.path("bin"), "TMPDIR": temporary,
                ]
                environment["TESTLEDGER_VERSION"] = version
                environment["PATH"] = path
                return try await ChildProcess.runTool([shell, InstallScriptTests.script], environment: environment)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: temporary) == [], "the work folder is removed")
            let installed = (try? FileManager.default.contentsOfDirectory(atPath: directory.path("bin"))) ?? []
            return Attempt(
                status: output.status, stdout: output.stdout, stderr: output.stderr, installed: installed.sorted(),
                requests: await stand.log.paths)
        }

        /// Runs `install.sh` as `install` does and checks that it refused: a non-zero exit, each of
        /// `reasons` on standard error, nothing installed.
        func expectRefusal(_ shell: String, _ assets: [String: Asset], saying reasons: String..., path: String? = nil)
            async throws
        {
            let attempt = try await install(shell, assets, path: path)
            #expect(attempt.status != 0)
            for reason in reasons { #expect(attempt.stderr.contains(reason), "\(attempt.stderr)") }
            #expect(attempt.installed == [])
        }

        /// A `PATH` of one folder linking every program of this `PATH` but `hidden`.
        func pathWithout(_ hidden: Set<String>) throws -> String {
            let folder = directory.url.appending(path: "path")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
            for entry in path.split(separator: ":") {
                for name in (try? FileManager.default.contentsOfDirectory(atPath: String(entry))) ?? []
                where !hidden.contains(name)
                    && !FileManager.default.fileExists(atPath: folder.appending(path: name).path)
                {
                    try FileManager.default.createSymbolicLink(
                        atPath: folder.appending(path: name).path, withDestinationPath: "\(entry)/\(name)")
                }
            }
            return folder.path
        }
    }
}

/// GitHub's release downloads as far as `install.sh` uses them, on 127.0.0.1: `/releases/download/
/// TAG/NAME` redirects (302) to the file, as GitHub does to its object store, or answers 404 when
/// the release has no such file; the tag `latest` redirects to the newest release, 1.2.3.
struct StandInReleases: Sendable {
    enum Asset: Sendable {
        case file(Data)
        /// Announces every byte in Content-Length, sends half of them and closes the connection.
        case cut(Data)
    }

    /// Every path asked for, in order.
    actor RequestLog {
        private(set) var paths: [String] = []
        func append(_ path: String) { paths.append(path) }
    }

    struct CutShort: Error {}

    /// The files, by `vVERSION/NAME`.
    let assets: [String: Asset]
    let log = RequestLog()

    /// Runs `body` with the stand-in's address.
    func serve<T: Sendable>(_ body: @escaping @Sendable (String) async throws -> T) async throws -> T {
        let router = Router()
        router.get("releases/download/:tag/:name") { request, context in
            await log.append(request.uri.path)
            let (tag, name) = (try context.parameters.require("tag"), try context.parameters.require("name"))
            if tag == "latest" {
                return Response(status: .found, headers: [.location: "/releases/download/v1.2.3/\(name)"])
            }
            guard assets["\(tag)/\(name)"] != nil else { return Response(status: .notFound) }
            return Response(status: .found, headers: [.location: "/objects/\(tag)/\(name)"])
        }
        router.get("objects/:tag/:name") { request, context in
            await log.append(request.uri.path)
            let (tag, name) = (try context.parameters.require("tag"), try context.parameters.require("name"))
            switch assets["\(tag)/\(name)"] {
            case .file(let data):
                return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(data: data)))
            case .cut(let data):
                return Response(
                    status: .ok, headers: [.contentLength: "\(data.count)"],
                    body: ResponseBody(contentLength: data.count) { writer in
                        try await writer.write(ByteBuffer(data: data.prefix(data.count / 2)))
                        throw CutShort()
                    })
            case nil:
                return Response(status: .notFound)
            }
        }
        return try await LoopbackServer.serve(router, body)
    }
}

import Foundation
import LedgerTestSupport
import Testing

/// What can be checked of `docker/` without a container engine: the runtime stage installs every
/// library the binary links (`Scripts/check-image-libraries.sh`, on Debian), the build fetches
/// nothing but its two images, and the PostgreSQL compose file keeps the password out of the URL.
@Suite struct DockerImageTests {
    static let docker = CLI.packageRoot.appending(path: "docker")
    static let script = CLI.packageRoot.appending(path: "Scripts/check-image-libraries.sh")
    static let onDebian = FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg")

    static func text(_ name: String) throws -> String {
        try String(contentsOf: docker.appending(path: name), encoding: .utf8)
    }

    @Test(.enabled(if: onDebian, "needs dpkg, ldd and readelf (Debian)"))
    func theRuntimeStageInstallsEveryLibraryTheBinaryLinks() async throws {
        let checked = try await ChildProcess.run(
            Self.script, [CLI.binary.path, Self.docker.appending(path: "Dockerfile").path])
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
        #expect(checked.stdout.contains("libcurl.so.4 (libcurl4, installed)"), "\(checked.stdout)")
        #expect(checked.stdout.contains("libsqlite3.so.0 (libsqlite3-0, installed)"), "\(checked.stdout)")
    }

    @Test(.enabled(if: onDebian, "needs dpkg, ldd and readelf (Debian)"))
    func aLibraryThatCameOnlyWithCurlIsNamedAsMissing() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dockerfile = try Self.text("Dockerfile")
        #expect(dockerfile.contains(" libcurl4 "))
        let withoutLibcurl = try directory.write(
            "Dockerfile", dockerfile.replacingOccurrences(of: " libcurl4 ", with: " "))
        let checked = try await ChildProcess.run(Self.script, [CLI.binary.path, withoutLibcurl.path])
        #expect(checked.status != 0)
        #expect(checked.stderr.contains("does not install: libcurl4;"), "\(checked.stderr)")
    }

    @Test func theBuildNamesNoDockerfileFrontendAndKeepsItsHealthCheck() throws {
        let dockerfile = try Self.text("Dockerfile")
        #expect(!dockerfile.contains("# syntax="))
        #expect(dockerfile.contains("HEALTHCHECK "))
        let server = try String(contentsOf: CLI.packageRoot.appending(path: "docs/server.md"), encoding: .utf8)
        #expect(server.contains("podman build --format docker"))
    }

    @Test func thePostgresComposeFileKeepsThePasswordOutOfTheURL() throws {
        let compose = try Self.text("compose.postgres.yaml")
        let url = try #require(
            compose.split(separator: "\n").first { $0.contains("TESTLEDGER_DATABASE_URL:") })
        #expect(!url.contains("PASSWORD") && url.contains("postgres://testledger@postgres:5432/"), "\(url)")
        #expect(compose.contains("TESTLEDGER_DATABASE_PASSWORD: ${POSTGRES_PASSWORD"))
    }
}

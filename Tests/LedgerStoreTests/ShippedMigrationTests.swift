import Foundation
import LedgerTestSupport
import Testing

/// A shipped migration never changes: ledgers already migrated would never run the new text, so
/// SQLite and PostgreSQL ledgers, old and new, would disagree. `Migrations/checksums.txt` holds
/// the SHA-256 of every migration of both dialects, as `sha256sum` writes it.
@Suite struct ShippedMigrationTests {
    /// The repository's `Migrations/` folder.
    static let migrations = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "Migrations")

    @Test func everyMigrationIsTheOneThatShipped() throws {
        let list = try String(contentsOf: Self.migrations.appending(path: "checksums.txt"), encoding: .utf8)
        let problems = try MigrationChecksums.problems(in: Self.migrations, list: list)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        #expect(list.contains("  sqlite/001_initial.sql\n") && list.contains("  postgresql/001_initial.sql\n"))
    }

    @Test func anEditedMigrationAndAnUnlistedOneAreNamed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.url.appending(path: "Migrations")
        for dialect in ["sqlite", "postgresql"] {
            try FileManager.default.createDirectory(
                at: folder.appending(path: dialect), withIntermediateDirectories: true)
        }
        try Data("CREATE TABLE run (id TEXT);\n".utf8).write(to: folder.appending(path: "sqlite/001_initial.sql"))
        try Data("CREATE TABLE run (id text);\n".utf8).write(to: folder.appending(path: "postgresql/001_initial.sql"))
        let list = """
            \(MigrationChecksums.sha256(Data("CREATE TABLE run (id TEXT);\n".utf8)))  sqlite/001_initial.sql
            \(MigrationChecksums.sha256(Data("CREATE TABLE run (id text);\n".utf8)))  postgresql/001_initial.sql

            """
        #expect(try MigrationChecksums.problems(in: folder, list: list).isEmpty)

        try Data("CREATE TABLE run (id TEXT, name TEXT);\n".utf8)
            .write(to: folder.appending(path: "sqlite/001_initial.sql"))
        try Data("ALTER TABLE run ADD name text;\n".utf8).write(to: folder.appending(path: "postgresql/002_name.sql"))
        try FileManager.default.removeItem(at: folder.appending(path: "postgresql/001_initial.sql"))
        let problems = try MigrationChecksums.problems(in: folder, list: list)
        #expect(problems.count == 3)
        #expect(
            problems.contains {
                $0.contains("sqlite/001_initial.sql changed") && $0.contains("add a new migration instead")
            })
        #expect(
            problems.contains { $0.contains("postgresql/002_name.sql is not in") && $0.contains(">> checksums.txt") })
        #expect(problems.contains { $0.contains("postgresql/001_initial.sql was removed") })
    }

    @Test func theChecksumIsSHA256() {
        #expect(MigrationChecksums.sha256(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            MigrationChecksums.sha256(Data("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // 56 bytes: the padding needs a second block.
        #expect(
            MigrationChecksums.sha256(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}

/// Compares the migrations of both dialects with a `sha256sum` list of them.
enum MigrationChecksums {
    /// What is wrong, one sentence per file: changed, unlisted or removed.
    /// - Parameters:
    ///   - folder: the `Migrations/` folder, with `sqlite/` and `postgresql/` in it.
    ///   - list: lines of `sha256  dialect/file.sql`.
    /// - Returns: the problems; empty when every migration is the listed one.
    /// - Throws: a file system error when a folder cannot be listed or a file read.
    static func problems(in folder: URL, list: String) throws -> [String] {
        var listed: [String: String] = [:]
        for line in list.split(separator: "\n") where !line.isEmpty {
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { continue }
            listed[parts[1].trimmingCharacters(in: .whitespaces)] = String(parts[0])
        }
        var problems: [String] = []
        var present: Set<String> = []
        for dialect in ["sqlite", "postgresql"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.appending(path: dialect).path)
            for name in names.sorted() where name.hasSuffix(".sql") {
                let path = "\(dialect)/\(name)"
                present.insert(path)
                let sum = sha256(try Data(contentsOf: folder.appending(path: path)))
                switch listed[path] {
                case nil:
                    problems.append(
                        "Migrations/\(path) is not in Migrations/checksums.txt: once it is final, add its line "
                            + "with `cd Migrations && sha256sum \(path) >> checksums.txt`")
                case sum?:
                    break
                case let shipped?:
                    problems.append(
                        "Migrations/\(path) changed since it shipped (SHA-256 \(sum), listed \(shipped)): "
                            + "a shipped migration never changes; add a new migration instead")
                }
            }
        }
        for path in listed.keys.sorted() where !present.contains(path) {
            problems.append("Migrations/\(path) was removed: a shipped migration stays; add a new migration instead")
        }
        return problems
    }

    /// The SHA-256 of `data`, in lowercase hexadecimal, as `sha256sum` prints it.
    static func sha256(_ data: Data) -> String {
        var hash: [UInt32] = [
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
        ]
        var message = [UInt8](data)
        let bits = UInt64(message.count) * 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: bits >> shift)) }
        var w = [UInt32](repeating: 0, count: 64)
        for block in stride(from: 0, to: message.count, by: 64) {
            for i in 0..<16 {
                w[i] = message[block + 4 * i..<block + 4 * i + 4].reduce(0) { $0 << 8 | UInt32($1) }
            }
            for i in 16..<64 {
                let s0 = rotate(w[i - 15], 7) ^ rotate(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = rotate(w[i - 2], 17) ^ rotate(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = (hash[0], hash[1], hash[2], hash[3], hash[4], hash[5], hash[6], hash[7])
            for i in 0..<64 {
                let t1 = h &+ (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) &+ ((e & f) ^ (~e & g)) &+ k[i] &+ w[i]
                let t2 = (rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
                (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
            for (i, value) in [a, b, c, d, e, f, g, h].enumerated() { hash[i] = hash[i] &+ value }
        }
        return hash.map { word in
            let hex = String(word, radix: 16)
            return String(repeating: "0", count: 8 - hex.count) + hex
        }.joined()
    }

    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        value >> count | value << (32 - count)
    }

    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a short-lived program to its end and keeps what it prints, through `posix_spawn`.
///
/// Foundation's `Process` closes every descriptor number the process may hold before it starts
/// a program, one `close` each (about a thousand calls under the usual limit); here the child
/// keeps only its standard input (`/dev/null`), output (a pipe) and error (`/dev/null`). On Linux
/// the rest go in one `close_range`, through glibc's
/// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34 and later; where it is missing, only
/// descriptors opened close-on-exec stay out of the child, as Swift's, SQLite's and the pipe's
/// are); on macOS through `POSIX_SPAWN_CLOEXEC_DEFAULT`.
public enum Spawn {
    /// How a program ended and what it wrote to its standard output.
    public struct Output: Hashable, Sendable {
        /// The exit status; 128 plus the signal's number when a signal ended it.
        public var status: Int32
        /// Everything it wrote to its standard output.
        public var standardOutput: [UInt8]

        /// The standard output as UTF-8 text.
        public var text: String { String(decoding: standardOutput, as: UTF8.self) }
    }

    /// A program that could not be started, with the system's error number.
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The program as named.
        public var program: String
        /// The `errno` value: `ENOENT` for a program that is not there.
        public var code: Int32

        public var description: String { "cannot run \(program): \(String(cString: strerror(code)))" }
    }

    /// Runs `program` with `arguments` in the current directory and waits for it to end.
    ///
    /// - Parameters:
    ///   - program: a path, or a name looked up on this process's `PATH`.
    ///   - arguments: the arguments after the program's name.
    ///   - environment: the program's environment variables; this process's when `nil`.
    /// - Returns: the exit status and everything the program wrote to its standard output.
    /// - Throws: ``Failure`` when the program cannot be started (missing, not executable).
    public static func run(_ program: String, _ arguments: [String], environment: [String: String]? = nil) throws
        -> Output
    {
        let (readEnd, writeEnd) = try pipe(program)
        defer { close(readEnd) }
        let started: Result<pid_t, Failure> = withFileActions(output: writeEnd) { actions in
            withAttributes { attributes in
                withCStrings([program] + arguments) { argv in
                    withEnvironment(environment) { envp in
                        var pid = pid_t()
                        let code = posix_spawnp(&pid, program, actions, attributes, argv, envp)
                        return code == 0 ? .success(pid) : .failure(Failure(program: program, code: code))
                    }
                }
            }
        }
        close(writeEnd)
        let pid = try started.get()
        let printed = readToEnd(readEnd)
        return Output(status: wait(for: pid), standardOutput: printed)
    }

    // MARK: Descriptors

    /// A pipe whose ends are closed on `exec`: the child receives the write end as its standard
    /// output by `dup2`, which clears the flag on the copy.
    private static func pipe(_ program: String) throws -> (Int32, Int32) {
        var ends: [Int32] = [-1, -1]
        #if canImport(Glibc)
            guard Glibc.pipe(&ends) == 0 else { throw Failure(program: program, code: errno) }
        #else
            guard Darwin.pipe(&ends) == 0 else { throw Failure(program: program, code: errno) }
        #endif
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        return (ends[0], ends[1])
    }

    #if canImport(Glibc)
        private typealias FileActions = posix_spawn_file_actions_t
        private typealias Attributes = posix_spawnattr_t
    #else
        private typealias FileActions = posix_spawn_file_actions_t?
        private typealias Attributes = posix_spawnattr_t?
    #endif

    /// The child's descriptors: `/dev/null` in, the pipe out, `/dev/null` for errors, nothing else.
    private static func withFileActions<T>(output: Int32, _ body: (UnsafePointer<FileActions>) -> T) -> T {
        #if canImport(Glibc)
            var actions = FileActions()
        #else
            var actions: FileActions = nil
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        #if canImport(Glibc)
            addCloseFrom(&actions, 3)
        #endif
        return body(&actions)
    }

    #if canImport(Glibc)
        /// Closes descriptors from `lowest` up in the child, in one system call, where glibc can.
        private static func addCloseFrom(_ actions: inout FileActions, _ lowest: Int32) {
            typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<FileActions>, Int32) -> Int32
            guard let process = dlopen(nil, RTLD_NOW),
                let symbol = dlsym(process, "posix_spawn_file_actions_addclosefrom_np")
            else { return }
            _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, lowest)
        }
    #endif

    /// Signals as a freshly started program expects them: none blocked, `SIGPIPE` at its default
    /// (a Swift process ignores it); on macOS, every descriptor not named closed.
    private static func withAttributes<T>(_ body: (UnsafePointer<Attributes>) -> T) -> T {
        #if canImport(Glibc)
            var attributes = Attributes()
        #else
            var attributes: Attributes = nil
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK) | Int32(POSIX_SPAWN_SETSIGDEF)
        #if canImport(Darwin)
            flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))
        return body(&attributes)
    }

    // MARK: Arguments and environment

    /// `strings` as a `NULL`-terminated array of C strings, for as long as `body` runs.
    private static func withCStrings<T>(
        _ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> T
    ) -> T {
        let copies: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
        defer { copies.forEach { free($0) } }
        return copies.withUnsafeBufferPointer { buffer in
            // `posix_spawnp` takes `char *const argv[]`; it does not write through them.
            body(buffer.baseAddress.unsafelyUnwrapped)
        }
    }

    /// `variables`, else this process's environment, as the `NAME=value` C strings `posix_spawnp`
    /// takes.
    private static func withEnvironment<T>(
        _ variables: [String: String]?, _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> T
    ) -> T {
        let variables = variables ?? ProcessInfo.processInfo.environment
        return withCStrings(variables.map { "\($0.key)=\($0.value)" }, body)
    }

    // MARK: Waiting

    private static func readToEnd(_ descriptor: Int32) -> [UInt8] {
        var printed: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                printed += chunk[..<count]
            } else if count == 0 || errno != EINTR {
                return printed
            }
        }
    }

    private static func wait(for pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}

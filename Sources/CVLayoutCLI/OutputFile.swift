import Foundation

/// Writes an output file atomically: a temporary file beside it, renamed over it once written;
/// on any error it is removed and the destination left alone. Files are examined with stat(2),
/// lstat(2) and readlink(2): `FileManager` and `URL` bring about 1 MiB of Foundation into memory.
enum OutputFile {
    /// Where bytes are written, a chunk at a time.
    typealias Sink = (UnsafeBufferPointer<UInt8>) throws -> Void

    /// Calls `body` with a sink that writes to a temporary file, then renames it to `path`.
    /// - Throws: `CLIError` with status 73 when the file cannot be created, 74 on a write or
    ///   rename error; errors `body` throws pass through after the cleanup.
    static func write(to path: String, _ body: (@escaping Sink) throws -> Void) throws {
        if path.isEmpty { throw CLIError(.cannotOpenOutput("", .emptyPath, creating: true)) }
        if let fd = openDescriptor(named: path) {
            // The shell's own open file: `>>` keeps appending, and the file is not replaced.
            return try body { chunk in try writeAll(fd, chunk, path: path) }
        }
        // A symbolic link is followed: the file it names is replaced, the link stays.
        let target = resolvingSymbolicLinks(path)
        if let mode = fileMode(target, followingLinks: true), mode & S_IFMT == S_IFDIR {
            throw CLIError(.cannotOpenOutput(path, .isADirectory, creating: true))
        }
        if let mode = fileMode(target, followingLinks: false), mode & S_IFMT != S_IFREG {
            // A device, FIFO or socket (/dev/null, a pipe behind /dev/stdout): written directly.
            let fd = open(target, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw CLIError(.cannotOpenOutput(path, .lastError, creating: false)) }
            defer { close(fd) }
            return try body { chunk in try writeAll(fd, chunk, path: path) }
        }
        try writeReplacing(target, shownAs: path, body)
    }

    /// `write(to:_:)` for `path`, or `stdout` for `nil` and `-`; each chunk shown to `probe` first.
    static func write(to path: String?, stdout: @escaping Sink, probe: SVGSizeProbe,
                      _ body: (@escaping Sink) throws -> Void) throws {
        guard let path, path != "-" else { return try body { try probe.observe($0); try stdout($0) } }
        try write(to: path) { sink in try body { try probe.observe($0); try sink($0) } }
    }

    /// `path` with its symbolic links resolved (realpath(3)); a dangling link followed one level.
    private static func resolvingSymbolicLinks(_ path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        var bytes = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &bytes, bytes.count - 1)
        guard n > 0 else { return path }
        let destination = String(decoding: bytes[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return destination.hasPrefix("/") ? destination : directory(of: path) + "/" + destination
    }

    /// The open descriptor `path` names (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`), or `nil`.
    private static func openDescriptor(named path: String) -> Int32? {
        let number = ["/dev/stdout": "1", "/dev/stderr": "2"][path]
            ?? ["/dev/fd/", "/proc/self/fd/"].first(where: path.hasPrefix).map { String(path.dropFirst($0.count)) }
        guard let number, let fd = Int32(number), fd >= 0, fcntl(fd, F_GETFD) != -1 else { return nil }
        return fd
    }

    /// The folder part of `path` (`.` for a bare name), as dirname(1) gives it.
    static func directory(of path: String) -> String {
        let parent = path.split(separator: "/").dropLast().joined(separator: "/")
        return path.hasPrefix("/") ? "/" + parent : parent.isEmpty ? "." : parent
    }

    /// `path`'s `st_mode` from stat(2), or lstat(2) when not `followingLinks`; `nil` for no such file.
    private static func fileMode(_ path: String, followingLinks: Bool) -> mode_t? {
        var status = stat()
        return (followingLinks ? stat(path, &status) : lstat(path, &status)) == 0 ? status.st_mode : nil
    }

    /// Writes into a temporary file beside `path` and renames it over `path`.
    private static func writeReplacing(_ path: String, shownAs shown: String,
                                       _ body: (@escaping Sink) throws -> Void) throws {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let suffix = ".cvlayout-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        // The file's own name in it, unless that makes a name longer than a folder takes (255 bytes).
        let fits = name.utf8.count + suffix.utf8.count < 255
        let temporary = directory(of: path) + "/" + (fits ? "." + name + suffix : suffix)
        // A signal that ends the process removes the temporary file first; set before the
        // file exists, so that no moment is left uncovered.
        let restoreSignals = removeOnSignal(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            restoreSignals()
            throw CLIError(.cannotOpenOutput(shown, .lastError, creating: true))
        }
        var closed = false
        var renamed = false
        defer {
            if !closed { close(fd) }
            if !renamed { unlink(temporary) }
            restoreSignals()
        }
        try body { chunk in try writeAll(fd, chunk, path: shown) }
        guard fsync(fd) == 0 || errno == EINVAL || errno == EROFS else { throw CLIError(.cannotWrite(shown, .lastError)) }
        closed = true
        guard close(fd) == 0 else { throw CLIError(.cannotWrite(shown, .lastError)) }
        if let mode = fileMode(path, followingLinks: false) {
            chmod(temporary, mode & 0o7777)  // an existing file's permissions
        }
        guard rename(temporary, path) == 0 else {
            throw CLIError(.cannotOpenOutput(shown, .lastError, creating: true))
        }
        renamed = true
    }

    /// The signals after which a temporary output file is removed: those sent from outside
    /// whose default action ends the process (not SIGPIPE, ignored, nor the faults).
    static let cleanupSignals: [Int32] = {
        var signals: [Int32] = [SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGTERM, SIGXCPU, SIGXFSZ,
                                SIGVTALRM, SIGPROF]
        #if os(Linux)
        signals += [SIGIO, SIGPWR, SIGSTKFLT]
        #endif
        return signals
    }()

    /// Until the returned function is called, `cleanupSignals` unlink `path` (async-signal-
    /// safe) and then act as by default; one ignored at start (`nohup`) stays so.
    private static func removeOnSignal(_ path: String) -> () -> Void {
        let copy = strdup(path)
        temporaryToRemove = copy
        var restore: [() -> Void] = []
        for sig in cleanupSignals {
            // Read without changing it (setting SIG_IGN to read it would drop a signal sent meanwhile).
            var old = sigaction()
            sigaction(sig, nil, &old)
            #if os(Linux)
            let handler = old.__sigaction_handler.sa_handler
            #else
            let handler = old.__sigaction_u.__sa_handler
            #endif
            if unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { continue }
            signal(sig) { sig in
                if let path = temporaryToRemove { unlink(path) }
                signal(sig, SIG_DFL)
                raise(sig)
            }
            restore.append { sigaction(sig, &old, nil) }
        }
        return {
            for undo in restore { undo() }
            temporaryToRemove = nil
            free(copy)
        }
    }

    /// Writes all of `chunk` to `fd`, retrying on EINTR and short writes.
    /// - Throws: `BrokenPipe` when the reader went away; `CLIError` 74 naming `path`
    ///   (`nil`: standard output) for another error.
    static func writeAll(_ fd: Int32, _ chunk: UnsafeBufferPointer<UInt8>, path: String?) throws {
        var offset = 0
        while offset < chunk.count {
            let n = Foundation.write(fd, chunk.baseAddress! + offset, chunk.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { throw BrokenPipe() }
                throw CLIError(.cannotWrite(path, .lastError))
            }
            offset += n
        }
    }
}

/// The temporary output file being written, for the signal handler (`OutputFile`).
nonisolated(unsafe) private var temporaryToRemove: UnsafeMutablePointer<CChar>?

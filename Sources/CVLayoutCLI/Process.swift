import Foundation

/// `run` with this process's arguments, streams, colour policy and environment: the exit status.
public func runFromProcess() -> Int32 {
    run(arguments: Array(CommandLine.arguments.dropFirst()),
        stdin: { try readBounded(FileHandle.standardInput) },
        stdout: { try OutputFile.writeAll(STDOUT_FILENO, $0, path: nil) },
        stderr: writeToStandardError,
        color: .forProcess(),
        stdinDescriptor: STDIN_FILENO,
        environment: { name in getenv(name).map { String(cString: $0) } },
        stdinHoldsData: standardInputHoldsData())
}

/// Whether standard input is a pipe, a FIFO or a regular file (not a terminal, a device, a
/// socket or closed); nothing is read.
func standardInputHoldsData() -> Bool {
    var info = stat()
    guard fstat(STDIN_FILENO, &info) == 0 else { return false }
    let type = info.st_mode & S_IFMT
    return type == S_IFIFO || type == S_IFREG
}

/// Writes a message to standard error with write(2), lost quietly when it is closed or full.
private func writeToStandardError(_ message: String) {
    var message = message
    message.withUTF8 { try? OutputFile.writeAll(STDERR_FILENO, $0, path: nil) }
}

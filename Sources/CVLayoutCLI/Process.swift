import Foundation

/// Runs the command line of this process: arguments from `CommandLine`, standard input read
/// when the dataset is `-`, or when none is named and it is a pipe, FIFO or regular file
/// (`standardInputHoldsData`), standard output written in large chunks.
/// - Returns: the exit status for `exit`.
public func runFromProcess() -> Int32 {
    let arguments = Array(CommandLine.arguments.dropFirst())
    return run(arguments: arguments,
               stdin: { try readBounded(FileHandle.standardInput) },
               stdout: { chunk in
                   var offset = 0
                   while offset < chunk.count {
                       let n = write(STDOUT_FILENO, chunk.baseAddress! + offset, chunk.count - offset)
                       if n < 0 {
                           if errno == EINTR { continue }
                           if errno == EPIPE { throw BrokenPipe() }
                           throw CLIError(.cannotWrite(nil, .lastError))
                       }
                       offset += n
                   }
               },
               stderr: writeToStandardError,
               color: .forProcess(),
               stdinDescriptor: STDIN_FILENO,
               environment: { name in getenv(name).map { String(cString: $0) } },
               stdinHoldsData: standardInputHoldsData())
}

/// Whether standard input is a pipe, a FIFO or a regular file (data piped or redirected in),
/// rather than a terminal, a character device such as `/dev/null`, a socket or a closed
/// descriptor. fstat(2) only: nothing is read.
func standardInputHoldsData() -> Bool {
    var info = stat()
    guard fstat(STDIN_FILENO, &info) == 0 else { return false }
    let type = info.st_mode & S_IFMT
    return type == S_IFIFO || type == S_IFREG
}

/// Writes a message to standard error with write(2). A closed or full standard error loses
/// the message but never stops the program (FileHandle's `write` traps on such errors).
private func writeToStandardError(_ message: String) {
    var message = message
    message.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let n = write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            offset += n
        }
    }
}

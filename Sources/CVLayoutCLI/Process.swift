import Foundation

/// Runs the command line of this process: arguments from `CommandLine`, standard input read
/// only when the dataset is `-`, standard output written in large chunks.
/// - Returns: the exit status for `exit`.
public func runFromProcess() -> Int32 {
    let arguments = Array(CommandLine.arguments.dropFirst())
    return run(arguments: arguments,
               stdin: { try FileHandle.standardInput.readToEnd() ?? Data() },
               stdout: { chunk in
                   var offset = 0
                   while offset < chunk.count {
                       let n = write(STDOUT_FILENO, chunk.baseAddress! + offset, chunk.count - offset)
                       if n < 0 {
                           if errno == EINTR { continue }
                           if errno == EPIPE { throw BrokenPipe() }
                           throw CLIError.status(ExitStatus.ioError,
                                                 "cannot write to standard output: \(String(cString: strerror(errno)))")
                       }
                       offset += n
                   }
               },
               stderr: { message in FileHandle.standardError.write(message.data(using: .utf8)!) },
               color: .forProcess())
}

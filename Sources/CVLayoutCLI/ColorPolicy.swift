import Foundation

/// Which output streams may carry ANSI colour. Only diff reports are ever coloured: `cvlayout
/// diff` on standard output, `--check` on standard error. The testable `run(arguments:stdin:)`
/// never colours; the process colours a stream only when it is a terminal and `NO_COLOR` is
/// unset or empty (https://no-color.org) and `TERM` is not `dumb`.
public struct ColorPolicy: Equatable, Sendable {
    /// Standard output may be coloured.
    public var stdout: Bool
    /// Standard error may be coloured.
    public var stderr: Bool

    /// No colour anywhere: the default, and what tests see.
    public static let never = ColorPolicy(stdout: false, stderr: false)

    /// The policy for a process with `environment` (`nil`, the default: the process's own,
    /// its two variables read with `getenv`, and only when a stream is a terminal) whose
    /// streams are terminals as `isTerminal` says (by file descriptor).
    /// - Complexity: O(1).
    public static func forProcess(environment: [String: String]? = nil,
                                  isTerminal: (Int32) -> Bool = { isatty($0) == 1 }) -> ColorPolicy {
        let stdout = isTerminal(STDOUT_FILENO), stderr = isTerminal(STDERR_FILENO)
        guard stdout || stderr else { return .never }
        func variable(_ name: String) -> String? {
            if let environment { return environment[name] }
            return getenv(name).map { String(cString: $0) }
        }
        let allowed = (variable("NO_COLOR") ?? "").isEmpty && variable("TERM") != "dumb"
        return ColorPolicy(stdout: allowed && stdout, stderr: allowed && stderr)
    }
}

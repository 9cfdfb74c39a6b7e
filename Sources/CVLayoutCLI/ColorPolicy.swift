import Foundation

/// Which output streams may carry ANSI colour (diff reports only: `diff`'s stdout, `--check`'s
/// stderr): a terminal, when `NO_COLOR` is unset or empty and `TERM` is not `dumb`.
public struct ColorPolicy: Equatable, Sendable {
    public var stdout: Bool
    public var stderr: Bool

    /// No colour anywhere: the default, and what tests see.
    public static let never = ColorPolicy(stdout: false, stderr: false)

    /// The policy for a process with `environment` (default: its own), terminals by `isTerminal`.
    public static func forProcess(environment: [String: String]? = nil,
                                  isTerminal: (Int32) -> Bool = { isatty($0) == 1 }) -> ColorPolicy {
        let stdout = isTerminal(STDOUT_FILENO), stderr = isTerminal(STDERR_FILENO)
        guard stdout || stderr else { return .never }
        let environment = environment ?? ProcessInfo.processInfo.environment
        let allowed = (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        return ColorPolicy(stdout: allowed && stdout, stderr: allowed && stderr)
    }
}

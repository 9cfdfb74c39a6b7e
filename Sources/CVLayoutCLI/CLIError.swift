import LayoutCore
import LayoutComparison
import LayoutDatasets

/// Exit statuses (SPEC section 3, BSD sysexits).
public enum ExitStatus {
    /// Success.
    public static let success: Int32 = 0
    /// EX_USAGE: unknown flag or engine, missing or unparsable value, conflicting flags,
    /// index path out of range.
    public static let usage: Int32 = 64
    /// EX_DATAERR: malformed or invalid data, from the dataset or from a flag that parsed.
    public static let data: Int32 = 65
    /// EX_NOINPUT: the dataset cannot be opened.
    public static let noInput: Int32 = 66
    /// EX_CANTCREAT: the output file cannot be created.
    public static let cannotCreate: Int32 = 73
    /// EX_IOERR: a read or write error.
    public static let ioError: Int32 = 74
    /// EX_SOFTWARE: cvlayout found itself inconsistent (a defect to report).
    public static let software: Int32 = 70
}

/// An error of the command line: exit status and message, worded in ErrorMessages.swift
/// (but for `diff`'s and `--check`'s status-2 messages and the layout readers').
struct CLIError: Error, Equatable {
    let status: Int32
    let message: String
    /// For usage errors: the engine whose `--help` the hint names (`nil`: `cvlayout --help`).
    let usageEngine: String?
    let isUsage: Bool
    /// Whether it is a conflict (or an index path not in the data), not one value's fault.
    var isConflict = false

    static func usage(_ message: String, engine: String?) -> CLIError {
        CLIError(status: ExitStatus.usage, message: message, usageEngine: engine, isUsage: true)
    }

    static func data(_ message: String) -> CLIError { .status(ExitStatus.data, message) }

    static func status(_ status: Int32, _ message: String) -> CLIError {
        CLIError(status: status, message: message, usageEngine: nil, isUsage: false)
    }

    /// The stderr text: `cvlayout: error: …` (control characters as `?`), a usage error's hint.
    var stderrText: String {
        "cvlayout: error: \(questioningControlCharacters(message))\n"
            + (isUsage ? "Run 'cvlayout \(usageEngine.map { $0 + " " } ?? "")--help' for usage.\n" : "")
    }
}

import LayoutDatasets

/// Flag parsing in two stages: tokens (`--name value`, `--name=value`, `-f value`, `-fvalue`,
/// `--`) bound to an option table (`tokenize`, for every command), then `OptionValues`' reads.
enum ArgumentParser {
    /// Parses `arguments` for `engine` (its options and the global ones): the options, the DATASET (`-`: stdin).
    /// - Throws: `CLIError` (usage) as `tokenize`, and for more than one DATASET.
    static func parse(_ arguments: [String], engine: EngineDescriptor) throws -> (options: OptionValues, dataset: String?) {
        let (options, positionals) = try tokenize(arguments, table: knownOptions(for: engine.name),
                                                  command: engine.name)
        if positionals.count > 1 {
            throw CLIError(.moreThanOneDataset(shortenedForMessage(positionals[0]), shortenedForMessage(positionals[1])), engine: engine.name)
        }
        return (options, positionals.first)
    }

    /// Binds `arguments` to `table`'s options (the last repeat wins); the rest (after `--`, `-`,
    /// or no leading `-`) is positional. `command` names the command in messages; `unknown`
    /// gives its own problem for an unknown name.
    /// - Throws: `CLIError` (usage) for unknown flags (with "did you mean"), missing values
    ///   and a value given to a switch.
    static func tokenize(_ arguments: [String], table: [OptionSpec], command: String,
                         unknown: (String) -> CLIProblem? = { _ in nil }) throws -> (OptionValues, [String]) {
        var options = OptionValues(engine: command)
        var positionals: [String] = []
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            let name: String
            let inlineValue: String?
            let spec: OptionSpec?
            if argument.hasPrefix("--") {
                let parts = argument.dropFirst(2).split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                name = String(parts[0])
                inlineValue = parts.count > 1 ? String(parts[1]) : nil
                spec = table.first { $0.name == name }
            } else {
                let body = argument.dropFirst()
                let letter = body.first!  // "-" alone is positional
                name = String(letter)
                let tail = body.dropFirst()
                inlineValue = tail.isEmpty ? nil : String(tail.hasPrefix("=") ? tail.dropFirst() : tail)
                spec = table.first { $0.short == letter }
            }
            guard let spec else {
                let shown = argument.hasPrefix("--") ? "--" + name : argument
                throw CLIError(unknown(name) ?? .unknown(.option, shortenedForMessage(shown), nearest: nearest(name, among: table.map(\.name))),
                               engine: command)
            }
            if spec.valueName == nil {
                if inlineValue != nil { throw CLIError(.takesNoValue(spec.name), engine: command) }
                options.values[spec.name] = OptionValue(raw: .bool(true), origin: .commandLine)
                continue
            }
            if inlineValue == nil {  // the value is the next argument
                guard index < arguments.count, isValue(arguments[index]) else {
                    throw CLIError(.missingValue(spec.name, valueName: spec.valueName!), engine: command)
                }
                index += 1
            }
            options.values[spec.name] = OptionValue(raw: .string(inlineValue ?? arguments[index - 1]), origin: .commandLine)
        }
        return (options, positionals)
    }

    /// Whether `token` can be an option's value: anything not starting with `-`, `-` alone
    /// (stdin), or `-` followed by a digit or `.` (`--start-angle -90`).
    static func isValue(_ token: String) -> Bool {
        guard token.hasPrefix("-"), let next = token.dropFirst().first else { return true }
        return next.isASCII && (next.isNumber || next == ".")
    }
}

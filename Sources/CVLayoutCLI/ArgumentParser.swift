import LayoutFormats

/// The arguments after the engine name, split and bound to the option table.
struct ParsedArguments {
    /// Options given on the command line.
    var options: OptionValues
    /// The DATASET argument (`-` for stdin), if any.
    var dataset: String?
}

/// Hand-written flag parsing in two stages, as swift-argument-parser splits it: tokens
/// (`--name value`, `--name=value`, `-f value`, `--` ending options) bound to the engine's
/// option table; values are interpreted later by `OptionValues`' typed accessors.
enum ArgumentParser {
    /// Parses `arguments` for `engine`.
    /// - Throws: `CLIError` (usage) for unknown flags (with "did you mean"), missing values,
    ///   a value given to a switch, and more than one DATASET.
    static func parse(_ arguments: [String], engine: EngineDescriptor) throws -> ParsedArguments {
        let known = knownOptions(for: engine.name)
        var options = OptionValues(engine: engine.name)
        var dataset: String? = nil
        var index = 0
        var optionsEnded = false

        func setDataset(_ value: String) throws {
            if let dataset {
                throw CLIError.usage("more than one DATASET: '\(dataset)' and '\(value)'", engine: engine.name)
            }
            dataset = value
        }

        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                try setDataset(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            // Split into the option and an inline value.
            var name: String
            var inlineValue: String? = nil
            let spec: OptionSpec?
            if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                if let equals = body.firstIndex(of: "=") {
                    name = String(body[..<equals])
                    inlineValue = String(body[body.index(after: equals)...])
                } else {
                    name = String(body)
                }
                spec = known.first { $0.name == name }
            } else {
                let body = argument.dropFirst()
                guard let letter = body.first else { continue }
                name = String(letter)
                let tail = body.dropFirst()
                if tail.hasPrefix("=") {
                    inlineValue = String(tail.dropFirst())
                } else if !tail.isEmpty {
                    inlineValue = String(tail)
                }
                spec = known.first { $0.short == letter }
                if let spec { name = spec.name }
            }
            guard let spec else {
                let shown = argument.hasPrefix("--") ? "--" + name : argument
                var message = "unknown option '\(shown)'"
                if let near = nearest(name, among: known.map(\.name)) { message += "; did you mean '--\(near)'?" }
                throw CLIError.usage(message, engine: engine.name)
            }
            if spec.valueName == nil {
                if inlineValue != nil {
                    throw CLIError.usage("--\(spec.name) takes no value", engine: engine.name)
                }
                options.values[spec.name] = OptionValue(raw: .bool(true), origin: .commandLine)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count, isValue(arguments[index]) else {
                    throw CLIError.usage("missing value for --\(spec.name) (\(spec.valueName!))", engine: engine.name)
                }
                value = arguments[index]
                index += 1
            }
            options.values[spec.name] = OptionValue(raw: .string(value), origin: .commandLine)
        }
        return ParsedArguments(options: options, dataset: dataset)
    }

    /// Whether `token` can be an option's value: anything not starting with `-`, `-` alone
    /// (stdin), or `-` followed by a digit or `.` (`--start-angle -90`).
    private static func isValue(_ token: String) -> Bool {
        guard token.hasPrefix("-") else { return true }
        let rest = token.dropFirst()
        guard let next = rest.first else { return true }
        return next.isASCII && (next.isNumber || next == ".")
    }
}

import LayoutDatasets

// Shell completions for bash, zsh and fish, generated from the same tables as the help
// (`engineRegistry`, `globalOptions`, each engine's `options`, `OptionSpec.choices`,
// `diffOptions`), so they cannot drift from the parser.

// MARK: - The command model

/// How the value of an option or an operand completes.
enum ValueCompletion: Equatable {
    /// Free text (a number, a point): nothing to offer.
    case none
    /// A path (a file or a directory).
    case files
    /// One of these words.
    case words([String])
    /// A comma-separated list of these words (`--fields frame,alpha`).
    case wordList([String])

    /// How `option`'s value completes, or `nil` for a switch.
    init?(option: OptionSpec) {
        guard let valueName = option.valueName else { return nil }
        if !option.choices.isEmpty {
            self = valueName == "LIST" ? .wordList(option.choices) : .words(option.choices)
        } else if valueName == "FILE" || valueName == "GOLDEN" || valueName == "DIR" {
            self = .files
        } else {
            self = .none
        }
    }
}

/// A positional argument of a command.
struct Operand: Equatable {
    /// As help shows it (`DATASET`).
    let name: String
    /// How it completes.
    let completion: ValueCompletion
}

/// A command as completions and the manual see it: an engine or a subcommand.
struct CommandInterface {
    /// The command-line name.
    let name: String
    /// One line.
    let summary: String
    /// Its options, own ones first (`-h, --help` is implied for every command but `manpage`
    /// and `engines`).
    let options: [OptionSpec]
    /// Its positional arguments.
    let operands: [Operand]
    /// Whether it is an engine.
    let isEngine: Bool
    /// Whether `-h`/`--help` works after it.
    var takesHelp: Bool { isEngine || name == "diff" || name == "completions" }
}

/// Every command in help order: the engines, then the subcommands.
func commandInterfaces() -> [CommandInterface] {
    let engines = engineRegistry.map { engine in
        CommandInterface(name: engine.name, summary: engine.summary, options: engine.options + globalOptions,
                         operands: [Operand(name: "DATASET", completion: .files)], isEngine: true)
    }
    let subcommands = subcommandRegistry.map { command -> CommandInterface in
        let (options, operands) = subcommandInterface(command.name)
        return CommandInterface(name: command.name, summary: command.summary, options: options, operands: operands,
                                isEngine: false)
    }
    return engines + subcommands
}

/// The options and operands of the subcommand `name` (none for one this table does not know).
func subcommandInterface(_ name: String) -> (options: [OptionSpec], operands: [Operand]) {
    switch name {
    case "diff":
        return (diffOptions, [Operand(name: "EXPECTED", completion: .files), Operand(name: "ACTUAL", completion: .files)])
    case "completions":
        return ([], [Operand(name: "SHELL", completion: .words(CompletionShell.allCases.map(\.rawValue)))])
    case "transition":
        return (transitionOptions, [Operand(name: "DATASET", completion: .files)])
    default:
        return ([], [])
    }
}

/// The shells `cvlayout completions` writes scripts for.
enum CompletionShell: String, CaseIterable {
    case bash, zsh, fish

    /// The script.
    var script: String {
        switch self {
        case .bash: return bashCompletionScript()
        case .zsh: return zshCompletionScript()
        case .fish: return fishCompletionScript()
        }
    }
}

// MARK: - The subcommand

/// `cvlayout completions SHELL`.
let completionsCommand = SubcommandDescriptor(
    name: "completions",
    summary: "print the completion script for bash, zsh or fish"
) { arguments, io in
    if arguments.contains("-h") || arguments.contains("--help") {
        try io.emit(completionsHelp())
        return ExitStatus.success
    }
    guard arguments.count == 1 else {
        throw CLIError(.shellCount(arguments.count), engine: "completions")
    }
    guard let shell = CompletionShell(rawValue: arguments[0].lowercased()) else {
        let near = nearest(arguments[0], among: CompletionShell.allCases.map(\.rawValue))
        throw CLIError(.unknown(.shell, arguments[0], nearest: near), engine: "completions")
    }
    try io.emit(shell.script)
    return ExitStatus.success
}

/// `cvlayout completions --help`.
func completionsHelp() -> String {
    """
    USAGE: cvlayout completions bash|zsh|fish

    Prints a completion script for the shell: engines, subcommands, options and the values
    of enumerated options (--format, --order, --direction, …) complete.

      bash:  source <(cvlayout completions bash)      (or save it as
             /usr/local/share/bash-completion/completions/cvlayout)
      zsh:   cvlayout completions zsh > "${fpath[1]}/_cvlayout"   (or source it after compinit)
      fish:  cvlayout completions fish > ~/.config/fish/completions/cvlayout.fish

    'make install' installs all three.

    """
}

// MARK: - bash

/// The bash script: a `_cvlayout` function registered with `complete -F`. It needs only bash
/// itself (not the bash-completion package).
func bashCompletionScript() -> String {
    let commands = commandInterfaces()
    var s = """
        # bash completion for cvlayout                             -*- shell-script -*-
        # Generated by 'cvlayout completions bash' from cvlayout's option table; do not edit.
        # Load it with: source <(cvlayout completions bash)

        _cvlayout() {
            local cur="${COMP_WORDS[COMP_CWORD]}" prev="" option="" prefix=""
            (( COMP_CWORD > 0 )) && prev="${COMP_WORDS[COMP_CWORD-1]}"
            COMPREPLY=()
            # An option's value: after '--name', after '--name=' (readline splits words at
            # '='), or inside one '--name=value' word.
            if [[ "$cur" == --*=* ]]; then
                option="${cur%%=*}"; prefix="$option="; cur="${cur#*=}"
            elif [[ "$cur" == "=" && "$prev" == --* ]]; then
                option="$prev"; cur=""
            elif [[ "$prev" == "=" ]] && (( COMP_CWORD >= 2 )); then
                option="${COMP_WORDS[COMP_CWORD-2]}"
            elif [[ "$prev" == -* ]]; then
                option="$prev"
            fi
            if (( COMP_CWORD == 1 )); then
                COMPREPLY=( $(compgen -W "\(commands.map(\.name).joined(separator: " ")) -h --help -V --version" -- "$cur") )
                return 0
            fi
            local options="" operand_files="" operand_words="" mode="" words=""
            case "${COMP_WORDS[1]}" in

        """
    for command in commands {
        var flags: [String] = command.takesHelp ? ["-h", "--help"] : []
        for option in command.options {
            if let short = option.short { flags.append("-\(short)") }
            flags.append("--" + option.name)
        }
        s += "        \(command.name))\n"
        s += "            options=\"\(flags.joined(separator: " "))\"\n"
        if command.operands.contains(where: { $0.completion == .files }) {
            s += "            operand_files=1\n"
        } else if case .words(let words)? = command.operands.first?.completion {
            s += "            operand_words=\"\(words.joined(separator: " "))\"\n"
        }
        // Options that take a value, grouped by how the value completes.
        var cases: [(patterns: [String], action: String)] = []
        for option in command.options {
            guard let completion = ValueCompletion(option: option) else { continue }
            var patterns = ["--" + option.name]
            if let short = option.short { patterns.insert("-\(short)", at: 0) }
            let action: String
            switch completion {
            case .none: action = "mode=value"
            case .files: action = "mode=files"
            case .words(let words): action = "mode=words; words=\"\(words.joined(separator: " "))\""
            case .wordList(let words): action = "mode=list; words=\"\(words.joined(separator: " "))\""
            }
            if let k = cases.firstIndex(where: { $0.action == action }) {
                cases[k].patterns += patterns
            } else {
                cases.append((patterns, action))
            }
        }
        if !cases.isEmpty {
            s += "            case \"$option\" in\n"
            for (patterns, action) in cases {
                s += "                \(patterns.joined(separator: "|"))) \(action) ;;\n"
            }
            s += "            esac\n"
        }
        s += "            ;;\n"
    }
    s += """
                *) return 0 ;;
            esac
            case "$mode" in
                words)
                    COMPREPLY=( $(compgen -P "$prefix" -W "$words" -- "$cur") )
                    return 0 ;;
                list)
                    # Comma-separated: complete the last item, keep the ones before.
                    local head=""
                    [[ "$cur" == *,* ]] && head="${cur%,*},"
                    COMPREPLY=( $(compgen -P "$prefix$head" -W "$words" -- "${cur##*,}") )
                    compopt -o nospace 2>/dev/null
                    return 0 ;;
                files)
                    compopt -o filenames 2>/dev/null
                    COMPREPLY=( $(compgen -P "$prefix" -f -- "$cur") )
                    return 0 ;;
                value)
                    return 0 ;;
            esac
            [[ -n "$prefix" ]] && return 0
            if [[ "$cur" == -* ]]; then
                COMPREPLY=( $(compgen -W "$options" -- "$cur") )
            elif [[ -n "$operand_files" ]]; then
                compopt -o filenames 2>/dev/null
                COMPREPLY=( $(compgen -f -- "$cur") )
            elif [[ -n "$operand_words" ]]; then
                COMPREPLY=( $(compgen -W "$operand_words" -- "$cur") )
            fi
            return 0
        }
        complete -F _cvlayout cvlayout

        """
    return s
}

// MARK: - zsh

/// The zsh script: `#compdef cvlayout`, usable from `$fpath` (as `_cvlayout`) or sourced
/// after `compinit`.
func zshCompletionScript() -> String {
    let commands = commandInterfaces()
    var s = """
        #compdef cvlayout
        # zsh completion for cvlayout.
        # Generated by 'cvlayout completions zsh' from cvlayout's option table; do not edit.
        # Save it as _cvlayout in a directory of $fpath, or source it after compinit.

        _cvlayout() {
          local -a commands
          commands=(

        """
    for command in commands {
        s += "    " + zshQuote(command.name.replacingOccurrences(of: ":", with: "\\:") + ":" + command.summary) + "\n"
    }
    s += """
          )
          if (( CURRENT == 2 )); then
            if [[ $PREFIX == -* ]]; then
              compadd -- -h --help -V --version
            else
              _describe -t commands 'cvlayout command' commands
            fi
            return
          fi
          local command=$words[2]
          shift words
          (( CURRENT-- ))
          case $command in

        """
    for command in commands {
        var specs: [String] = []
        if command.takesHelp {
            specs.append(zshQuote("(- *)-h[show usage]"))
            specs.append(zshQuote("(- *)--help[show usage]"))
        }
        for option in command.options {
            var help = option.help
            if !option.choices.isEmpty { help += ": " + option.choices.joined(separator: "|") }
            if option.valueName != nil { help += " (default: \(option.defaultText))" }
            let explanation = "[" + zshEscapeBrackets(help) + "]"
            var argument = ""
            if let completion = ValueCompletion(option: option), let valueName = option.valueName {
                let message = valueName.replacingOccurrences(of: ":", with: "\\:")
                switch completion {
                case .none: argument = ":\(message):"
                case .files: argument = ":\(message):_files"
                case .words(let words): argument = ":\(message):(\(words.joined(separator: " ")))"
                case .wordList(let words): argument = ":\(message):_values -s , \(option.name) \(words.joined(separator: " "))"
                }
            }
            let exclusion = option.short.map { "(-\($0) --\(option.name))" } ?? ""
            if let short = option.short {
                specs.append(zshQuote(exclusion + "-\(short)" + (argument.isEmpty ? "" : "+") + explanation + argument))
            }
            specs.append(zshQuote(exclusion + "--\(option.name)" + (argument.isEmpty ? "" : "=") + explanation + argument))
        }
        for operand in command.operands {
            switch operand.completion {
            case .files: specs.append(zshQuote(":\(operand.name):_files"))
            case .words(let words): specs.append(zshQuote(":\(operand.name):(\(words.joined(separator: " ")))"))
            case .none, .wordList: specs.append(zshQuote(":\(operand.name):"))
            }
        }
        s += "    (\(command.name))\n"
        if specs.isEmpty {
            s += "      _message 'no arguments'\n"
        } else {
            s += "      _arguments -s -S \\\n" + specs.map { "        " + $0 }.joined(separator: " \\\n") + "\n"
        }
        s += "      ;;\n"
    }
    s += """
          esac
        }

        if [ "$funcstack[1]" = "_cvlayout" ]; then
          _cvlayout "$@"
        else
          compdef _cvlayout cvlayout
        fi

        """
    return s
}

/// `text` in single quotes for zsh (`'` as `'\''`).
private func zshQuote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// An `_arguments` explanation: backslash, brackets and colons escaped.
private func zshEscapeBrackets(_ text: String) -> String {
    var out = ""
    for c in text {
        if c == "\\" || c == "[" || c == "]" || c == ":" { out.append("\\") }
        out.append(c)
    }
    return out
}

// MARK: - fish

/// The fish script: `complete` lines, one per command and option.
func fishCompletionScript() -> String {
    let commands = commandInterfaces()
    var lines = [
        "# fish completion for cvlayout.",
        "# Generated by 'cvlayout completions fish' from cvlayout's option table; do not edit.",
        "# Save it as ~/.config/fish/completions/cvlayout.fish.",
        "",
        "complete -c cvlayout -f",
        "complete -c cvlayout -n __fish_use_subcommand -s h -l help -d 'show usage'",
        "complete -c cvlayout -n __fish_use_subcommand -s V -l version -d 'print the version'",
    ]
    for command in commands {
        lines.append("complete -c cvlayout -n __fish_use_subcommand -a \(command.name) -d \(fishQuote(command.summary))")
    }
    for command in commands {
        let condition = fishQuote("__fish_seen_subcommand_from \(command.name)")
        let prefix = "complete -c cvlayout -n \(condition)"
        lines.append("")
        if command.takesHelp { lines.append("\(prefix) -s h -l help -d 'show usage'") }
        for option in command.options {
            var line = prefix
            if let short = option.short { line += " -s \(short)" }
            line += " -l \(option.name)"
            switch ValueCompletion(option: option) {
            case nil: break
            case .none?: line += " -x"
            case .files?: line += " -r -F"
            case .words(let words)?: line += " -x -a " + fishQuote(words.joined(separator: " "))
            case .wordList(let words)?:
                line += " -x -a " + fishQuote("(__fish_complete_list , \"string split ' ' '\(words.joined(separator: " "))'\")")
            }
            var help = option.help
            if option.valueName != nil { help += " (default: \(option.defaultText))" }
            lines.append(line + " -d " + fishQuote(help))
        }
        for operand in command.operands.prefix(1) {
            switch operand.completion {
            case .files: lines.append("\(prefix) -F")
            case .words(let words): lines.append("\(prefix) -a " + fishQuote(words.joined(separator: " ")))
            case .none, .wordList: break
            }
        }
    }
    return lines.joined(separator: "\n") + "\n"
}

/// `text` in single quotes for fish (`\` and `'` escaped).
private func fishQuote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
}

/// `cvlayout --help`.
func globalHelp() -> String {
    var text = """
        cvlayout \(cvlayoutVersion): UICollectionView layouts computed on the command line

        USAGE: cvlayout ENGINE [OPTIONS] [DATASET]   lay out DATASET (a JSON file; '-' = stdin)
               cvlayout engines                      list the engines
               cvlayout ENGINE --help                that engine's options and defaults
               cvlayout --version

        Without DATASET an engine runs on its embedded default data:
          cvlayout ring -f svg > ring.svg
        unless standard input is a pipe or a file, which is then the dataset (as for jq;
        empty: the embedded data): cat feed.json | cvlayout waterfall -f csv. --count N never
        reads it. In a `while read` loop, give the engine < /dev/null (as ssh -n).

        ENGINES:

        """
    text += columns(engineRegistry.map { ($0.name, $0.summary) }, indent: "  ")
    let commandWidth = (engineRegistry.map(\.name) + subcommandRegistry.map(\.name)).map(\.count).max() ?? 0
    text += "\nCOMMANDS:\n" + columns(subcommandRegistry.map { ($0.name, $0.summary) }, indent: "  ", width: commandWidth + 2)
    text += "\nOPTIONS (every engine):\n" + optionLines(globalOptions)
    text += """

        Flags may also be given in the dataset's "options" object; the command line wins.
        Exit status: 0 success, 64 usage, 65 bad data, 66 DATASET unreadable,
        73 output file cannot be created, 74 read/write error.

        """
    return text
}

/// `cvlayout ENGINE --help`.
func engineHelp(_ engine: EngineDescriptor) -> String {
    var text = "USAGE: cvlayout \(engine.name) [OPTIONS] [DATASET]\n\n"
    text += engine.summary.prefix(1).uppercased() + engine.summary.dropFirst() + ".\n\n"
    text += engine.datasetHelp + "\n"
    text += "A pipe or file on standard input is the DATASET when none is named and --count is not given.\n\n"
    text += "\(engine.name.uppercased()) OPTIONS:\n" + optionLines(engine.options)
    text += "\nOPTIONS (every engine):\n" + optionLines(globalOptions)
    return text
}

/// The option table as help shows it, a line an option; `lists` joins a LIST's choices (others: `|`).
func optionLines(_ options: [OptionSpec], lists: String = "|") -> String {
    columns(options.map { ($0.synopsis, $0.helpText(choices: $0.valueName == "LIST" ? lists : "|")) }, indent: "  ",
            width: max(24, (options.map(\.synopsis.count).max() ?? 0) + 2))
}

/// Two columns, a line a row: `indent`, the name padded to `width` (default: longest + 2), the text.
func columns(_ rows: [(name: String, text: String)], indent: String = "", width: Int? = nil) -> String {
    let width = width ?? (rows.map(\.name.count).max() ?? 0) + 2
    return rows.map { indent + $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + $0.text + "\n" }.joined()
}

import LayoutCore
import LayoutDatasets

// Engine options declared once: name, syntax, help, parser and the configuration field they
// set; help's default is that field in a fresh configuration, so the two cannot disagree.

/// A configuration an engine's options fill: a core layout struct (`WaterfallLayout`) or a
/// command's own struct around one (`RingConfiguration`). A fresh value holds the defaults.
protocol EngineConfiguration: Equatable, Sendable {
    init()
}

/// One engine option bound to a field of `Config`.
struct BoundOption<Config: EngineConfiguration>: Sendable {
    let spec: OptionSpec
    /// Reads the option's value from the run's options (when given) into the configuration.
    let bind: @Sendable (OptionValues, inout Config) throws -> Void

    /// An option `read` parses into the field at `keyPath`; help's default: `defaultText`, or
    /// the field's as `format` writes it.
    private static func make<Value>(_ name: String, _ valueName: String?, _ keyPath: WritableKeyPath<Config, Value> & Sendable,
                                    _ help: String, choices: [String] = [], defaultText: String? = nil,
                                    format: (Value) -> String,
                                    read: @escaping @Sendable (OptionValues, String) throws -> Value) -> BoundOption {
        let shown = defaultText ?? format(Config()[keyPath: keyPath])
        let spec = valueName.map { OptionSpec.value(name, $0, default: shown, help, choices: choices) }
            ?? OptionSpec.flag(name, help)
        return BoundOption(spec: spec) { values, config in
            if values.has(name) { config[keyPath: keyPath] = try read(values, name) }
        }
    }

    /// A number of points, degrees or a factor: `--name 12.5`.
    static func number(_ name: String, _ valueName: String, _ keyPath: WritableKeyPath<Config, Double> & Sendable,
                       _ help: String) -> BoundOption {
        make(name, valueName, keyPath, help, format: shortText) { try $0.number($1, default: 0) }
    }

    static func integer(_ name: String, _ valueName: String, _ keyPath: WritableKeyPath<Config, Int> & Sendable,
                        _ help: String) -> BoundOption {
        make(name, valueName, keyPath, help, format: { String($0) }) { try $0.integer($1, default: 0) }
    }

    /// A size `W,H` (one number: both); `valueName` names its parts in help (`H,V`).
    static func size(_ name: String, valueName: String = "W,H", _ keyPath: WritableKeyPath<Config, Size> & Sendable,
                     _ help: String) -> BoundOption {
        make(name, valueName, keyPath, help, format: { "\(shortText($0.width)),\(shortText($0.height))" }) {
            try $0.parsed($1, expected: "W,H or one number", ValueSyntax.size)!
        }
    }

    /// Insets `T,L,B,R` (one number: all four).
    static func insets(_ name: String, _ keyPath: WritableKeyPath<Config, EdgeInsets> & Sendable, _ help: String) -> BoundOption {
        make(name, "T,L,B,R", keyPath, help, format: { i in
            [i.left, i.bottom, i.right].allSatisfy { $0 == i.top } ? shortText(i.top)
                : [i.top, i.left, i.bottom, i.right].map(shortText).joined(separator: ",")
        }) { try $0.parsed($1, expected: "T,L,B,R or one number", ValueSyntax.insets)! }
    }

    /// One of an enumeration's raw values: `--name choice`, with "did you mean".
    static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, _ valueName: String, _ keyPath: WritableKeyPath<Config, Choice> & Sendable, _ help: String
    ) -> BoundOption where Choice.RawValue == String {
        make(name, valueName, keyPath, help, choices: Choice.allCases.map(\.rawValue), format: \.rawValue) {
            try $0.choice($1, default: Choice.allCases.first!)
        }
    }

    static func flag(_ name: String, _ keyPath: WritableKeyPath<Config, Bool> & Sendable, _ help: String) -> BoundOption {
        make(name, nil, keyPath, help, format: { $0 ? "on" : "off" }) { try $0.flag($1) }
    }

    /// An index path `S:I` (`I`: `0:I`) for an optional field; `defaultText`: what holds without.
    static func indexPath(_ name: String, _ keyPath: WritableKeyPath<Config, IndexPath?> & Sendable, _ help: String,
                          defaultText: String) -> BoundOption {
        make(name, "S:I", keyPath, help, defaultText: defaultText, format: { _ in defaultText }) { try $0.indexPath($1) }
    }

    /// An index path `S:I` for a field with a default.
    static func indexPath(_ name: String, _ keyPath: WritableKeyPath<Config, IndexPath> & Sendable, _ help: String) -> BoundOption {
        make(name, "S:I", keyPath, help, format: { $0.description }) { try $0.indexPath($1)! }
    }

    /// An optional number (`--name 1.5`), absent by default (help shows `-`).
    static func number(_ name: String, _ valueName: String, _ keyPath: WritableKeyPath<Config, Double?> & Sendable,
                       _ help: String) -> BoundOption {
        make(name, valueName, keyPath, help, format: { $0.map(shortText) ?? "-" }) { try $0.number($1, default: 0) }
    }

    /// An optional integer (`--name N`), absent by default (help shows `-`).
    static func integer(_ name: String, _ valueName: String, _ keyPath: WritableKeyPath<Config, Int?> & Sendable,
                        _ help: String) -> BoundOption {
        make(name, valueName, keyPath, help, format: { $0.map(String.init) ?? "-" }) { try $0.integer($1, default: 0) }
    }

    /// A comma-separated list of numbers (`0,15,30`; empty: none), `expected` in messages.
    static func numbers(_ name: String, _ valueName: String, _ keyPath: WritableKeyPath<Config, [Double]> & Sendable,
                        _ help: String, expected: String) -> BoundOption {
        make(name, valueName, keyPath, help, format: { $0.map(shortText).joined(separator: ",") }) {
            try $0.parsed($1, expected: expected) { text in
                let parts = text.isEmpty ? [] : text.split(separator: ",", omittingEmptySubsequences: false)
                let numbers = parts.compactMap { ValueSyntax.number(String($0)) }
                return numbers.count == parts.count ? numbers : nil
            }!
        }
    }
}

/// A number as help shows it: the shortest text that reads back as the same Double.
private func shortText(_ value: Double) -> String { NumberPrecision.full.text(value) }

extension Array where Element: Sendable {
    /// A fresh `Config` (the defaults) with every option given in `values` applied, in table order.
    /// - Throws: `CLIError` for a value that does not parse (64 command line, 65 dataset).
    func configuration<Config>(from values: OptionValues) throws -> Config where Element == BoundOption<Config> {
        var config = Config()
        for option in self { try option.bind(values, &config) }
        return config
    }
}

import Testing
@testable import CVLayoutCLI

/// Every engine option is declared once, bound to its configuration field, with the default
/// help shows taken from that field: giving each option the value help shows as its default
/// must change nothing, and a value other than the default must change something (the option
/// is really bound).
struct OptionDefaultsTests {
    /// The engine options whose default is a value (not "-" or words), with their defaults.
    static let cases: [(engine: String, option: String, defaultText: String)] = engineRegistry.flatMap { engine in
        engine.options.compactMap { spec in
            guard spec.valueName != nil, spec.defaultText != "-", !spec.defaultText.contains(" ") else { return nil }
            return (engine.name, spec.name, spec.defaultText)
        }
    }

    @Test func everyEngineOptionIsCovered() {
        // Each engine has value options with shown defaults (ring's heart-from and
        // heart-samples describe theirs in words).
        for engine in engineRegistry {
            #expect(Self.cases.contains { $0.engine == engine.name }, "\(engine.name)")
        }
        #expect(Self.cases.count >= 40)
    }

    @Test(arguments: cases.map { "\($0.engine) --\($0.option) \($0.defaultText)" })
    func theDefaultHelpShowsIsTheDefaultTheCodeUses(_ line: String) {
        let words = line.split(separator: " ").map(String.init)
        let plain = run(arguments: [words[0], "-f", "csv"])
        let explicit = run(arguments: [words[0], words[1], words[2], "-f", "csv"])
        #expect(plain.status == 0 && explicit.status == 0, "\(explicit.stderr)")
        #expect(plain.stdout == explicit.stdout)
        #expect(run(arguments: [words[0], words[1], words[2], "-f", "json"]).stdout == run(arguments: [words[0]]).stdout)
    }
}

/// One `--option` a command accepts.
struct OptionSpec: Sendable {
    /// The long name without dashes, kebab-case: `dry-run`.
    var name: String
    /// The value's placeholder (`url` shows as `<url>`); `nil` for a flag.
    var valueName: String?
    /// True when the option may be given several times (values accumulate).
    var repeats = false
    /// One line of help.
    var help: String

    /// A flag: `--strict`.
    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help)
    }

    /// An option with a value: `--store <url>`.
    static func value(_ name: String, _ valueName: String, repeats: Bool = false, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, repeats: repeats, help: help)
    }

    /// `--store <url>` or `--strict`, as usage lines and errors show it.
    var synopsis: String {
        valueName.map { "--\(name) <\($0)>" } ?? "--\(name)"
    }
}

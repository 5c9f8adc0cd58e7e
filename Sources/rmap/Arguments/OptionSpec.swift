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
    /// A one-letter alias (`o` for `-o`), or `nil`.
    var short: Character? = nil

    /// `-o, --output <file>` or `--store <url>`, as help lists it.
    var label: String {
        (short.map { "-\($0), " } ?? "") + synopsis
    }

    /// `--store <url>` or `--strict`, as usage lines and errors show it.
    var synopsis: String {
        valueName.map { "--\(name) <\($0)>" } ?? "--\(name)"
    }
}

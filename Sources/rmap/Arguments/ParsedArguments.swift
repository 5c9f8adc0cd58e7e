/// The result of parsing one subcommand's arguments: flags given, option
/// values in order, and positional arguments.
struct ParsedArguments {
    /// The flags given, by long name.
    var flags: Set<String> = []
    /// The values given to each option, in order.
    var values: [String: [String]] = [:]
    /// The positional arguments, in order.
    var positionals: [String] = []

    /// True when the flag was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The last value given to an option (a repeated single-valued option keeps the last).
    func value(_ name: String) -> String? { values[name]?.last }

    /// Every value given to an option.
    func allValues(_ name: String) -> [String] { values[name] ?? [] }
}

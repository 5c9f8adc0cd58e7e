/// The result of parsing one subcommand's arguments: the texts given to each option, and the
/// positional arguments. Options are read only through their declaration (``Option``).
struct ParsedArguments {
    /// The command the arguments were parsed for; its usage line goes with a value's error.
    let command: CommandSpec
    /// The positional arguments, in order.
    var positionals: [String] = []
    /// The texts given to each option, by long name, in order; a flag's occurrences are empty texts.
    private var texts: [String: [String]] = [:]

    /// Arguments for `command`, with nothing given yet.
    init(command: CommandSpec) {
        self.command = command
    }

    /// Notes that `option` was given, with its text (`nil` for a flag).
    mutating func record(_ option: OptionSpec, _ text: String?) {
        texts[option.name, default: []].append(text ?? "")
    }

    /// The typed value of one of the command's options: its default when not given.
    ///
    /// - Throws: ``UsageError`` when a text given to it does not fit it.
    func value<Value>(_ option: Option<Value>) throws(UsageError) -> Value {
        assert(
            command.option(named: option.spec.name) != nil, "--\(option.spec.name) is not an option of \(command.name)")
        return try option.value(from: texts[option.spec.name] ?? [], command: command)
    }
}

/// What a subcommand accepts: its name, positional arguments and options, and
/// the text its help shows.
struct CommandSpec: Sendable {
    /// The subcommand's name: `run`.
    var name: String
    /// One line saying what the command does.
    var abstract: String
    /// The positional arguments' placeholder (`mapping` shows as `<mapping> ...`); `nil` when there are none.
    var positional: String?
    /// Help for the positional arguments.
    var positionalHelp = ""
    /// Whether the positional argument is one optional value (`[<subcommand>]`) rather than one or more.
    var optionalPositional = false
    /// Whether the positional arguments may be left out altogether (`[<payload> ...]`).
    var positionalsOptional = false
    /// The options, in the order help lists them.
    var options: [OptionSpec] = []
    /// Extra paragraphs shown after the options in help.
    var discussion = ""

    /// The option with this long name.
    func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name }
    }

    /// The option with this one-letter alias.
    func option(short letter: Character) -> OptionSpec? {
        options.first { $0.short == letter }
    }

    /// `rmap run <mapping> ... [--store <url>] [--strict]`.
    var usage: String {
        var parts = ["rmap", name]
        if let positional {
            parts.append(
                optionalPositional
                    ? "[<\(positional)>]" : positionalsOptional ? "[<\(positional)> ...]" : "<\(positional)> ...")
        }
        parts += options.map { "[\($0.synopsis)\($0.repeats ? " ..." : "")]" }
        return parts.joined(separator: " ")
    }

    /// A usage error that shows this command's usage line.
    func usageError(_ message: String) -> UsageError {
        UsageError(message: message, command: self)
    }
}

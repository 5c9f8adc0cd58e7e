/// What a subcommand accepts: its name, positional arguments and options, and
/// the text its help shows.
struct CommandSpec: Sendable {
    /// The subcommand's name: `run`.
    var name: String
    /// One line saying what the command does.
    var abstract: String
    /// The positional arguments; `nil` when there are none.
    var positionals: Positionals?
    /// The options, in the order help lists them: the command's own declarations, shared ones
    /// (`Option.store`) and the options of a group it includes (``StoreReadingOptions/Group``).
    var options: [any OptionDeclaration] = []
    /// Extra paragraphs shown after the options in help.
    var discussion = ""
    /// Each status the command can return, with what it means there: the last section of its help.
    var exitStatuses: [(status: ExitCode, meaning: String)] = []

    /// The option with this long name.
    func option(named name: String) -> OptionSpec? {
        options.lazy.map(\.spec).first { $0.name == name }
    }

    /// The option with this one-letter alias.
    func option(short letter: Character) -> OptionSpec? {
        options.lazy.map(\.spec).first { $0.short == letter }
    }

    /// `rmap run <mapping> ... [--store <url>] [--strict]`.
    var usage: String {
        var parts = ["rmap", name]
        if let positionals { parts.append(positionals.synopsis) }
        parts += options.map(\.spec).map { "[\($0.synopsis)\($0.repeats ? " ..." : "")]" }
        return parts.joined(separator: " ")
    }

    /// A usage error that shows this command's usage line.
    func usageError(_ message: String) -> UsageError {
        UsageError(message: message, command: self)
    }
}

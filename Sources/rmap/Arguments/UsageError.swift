/// A command line that cannot be run as given: printed to stderr with the
/// usage line and a pointer to help, exit status 2.
struct UsageError: Error {
    /// What is wrong, e.g. `unknown option '--foo' (did you mean '--format'?)`.
    var message: String
    /// The subcommand whose usage to show; `nil` for the top level.
    var command: CommandSpec?

    /// The full text for stderr.
    var report: String {
        let usage = command?.usage ?? "rmap <subcommand>"
        let help = command.map { "rmap help \($0.name)" } ?? "rmap help"
        return "Error: \(message)\nUsage: \(usage)\n  See '\(help)' for more information.\n"
    }
}

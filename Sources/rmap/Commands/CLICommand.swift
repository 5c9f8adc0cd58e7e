/// A subcommand: what it accepts, how its arguments become a typed value, and
/// what it does.
protocol CLICommand: Sendable {
    /// The options, arguments and help text.
    static var spec: CommandSpec { get }
    /// The command from its parsed arguments.
    ///
    /// - Throws: ``UsageError`` for a value that does not fit its option.
    init(_ arguments: ParsedArguments) throws(UsageError)
    /// Runs the command.
    func run(_ context: CommandContext) async -> ExitCode
}

/// A subcommand as the top level sees it: its spec, and how to make it from parsed arguments.
struct CommandEntry: Sendable {
    /// The subcommand's spec.
    let spec: CommandSpec
    /// Makes the command from its parsed arguments.
    let make: @Sendable (ParsedArguments) throws(UsageError) -> any CLICommand

    /// The entry of a command type.
    init<Command: CLICommand>(_ type: Command.Type) {
        spec = Command.spec
        make = { arguments throws(UsageError) in try Command(arguments) }
    }
}

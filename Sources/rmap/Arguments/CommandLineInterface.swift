import RMap

/// The top level of `rmap`: picks the subcommand, answers `--version`,
/// `-h/--help` and `help [COMMAND]`, and turns usage errors into exit status 2.
struct CommandLineInterface {
    /// The subcommands, in the order help lists them.
    static let commands = [
        CommandEntry(RunCommand.self), CommandEntry(ValidateCommand.self), CommandEntry(InspectCommand.self),
        CommandEntry(DiffCommand.self), CommandEntry(PushCommand.self), CommandEntry(InitCommand.self),
        CommandEntry(PluginsCommand.self), CommandEntry(StatusCommand.self), CommandEntry(SchemaCommand.self),
        CommandEntry(TestCommand.self),
    ]

    static let abstract = "Map REST JSON into an object graph, store it, and push changes back."

    /// `rmap help [<subcommand>]`, whose help `rmap help help` shows.
    static let helpSpec = CommandSpec(
        name: "help", abstract: "Show help for a subcommand.",
        positionals: Positionals(
            placeholder: "subcommand", help: "The subcommand to show help for; without one, the list of subcommands.",
            count: .atMostOne),
        exitStatuses: [(.success, "the help was printed"), (.usage, "usage error (e.g. an unknown subcommand)")])

    /// Where commands write and which plugins they see.
    var context: CommandContext

    /// Runs the command line `arguments` (without the program name).
    func run(_ arguments: [String]) async -> ExitCode {
        do {
            return try await dispatch(arguments)
        } catch {
            context.errors.write(error.report)
            return .usage
        }
    }

    private func dispatch(_ arguments: [String]) async throws(UsageError) -> ExitCode {
        guard let first = arguments.first, first != "-h", first != "--help" else {
            return help(nil)
        }
        let rest = Array(arguments.dropFirst())
        if first == "--version" {
            if let extra = rest.first { throw UsageError(message: "unexpected argument '\(extra)'") }
            context.output.line(RMapVersion.current)
            return .success
        }
        if first.hasPrefix("-") {
            throw UsageError(
                message: "unknown option '\(first)'\(Suggestion.hint(for: first, in: ["--version", "--help"]))")
        }
        if first == "help" {
            if rest.count > 1 { throw UsageError(message: "unexpected argument '\(rest[1])'") }
            if rest.first == Self.helpSpec.name || HelpRequest.isPresent(in: rest) {
                return write(HelpText.command(Self.helpSpec))
            }
            return help(try rest.first.map(command(named:)))
        }
        let entry = try command(named: first)
        if HelpRequest.isPresent(in: rest) { return help(entry) }
        let command = try entry.make(ArgumentParser(spec: entry.spec).parse(rest))
        return await command.run(context)
    }

    private func command(named name: String) throws(UsageError) -> CommandEntry {
        for entry in Self.commands where entry.spec.name == name { return entry }
        let names = Self.commands.map { $0.spec.name } + ["help"]
        throw UsageError(message: "unknown command '\(name)'\(Suggestion.hint(for: name, in: names))")
    }

    private func help(_ command: CommandEntry?) -> ExitCode {
        write(
            command.map { HelpText.command($0.spec) }
                ?? HelpText.root(Self.commands.map { $0.spec } + [Self.helpSpec], abstract: Self.abstract))
    }

    /// Prints a help page on stdout: exit 0.
    private func write(_ page: String) -> ExitCode {
        context.output.write(page)
        return .success
    }
}

/// A command that reads a store's sync state (`diff`, `status`): it takes the mapping files,
/// `--store` and `--json` (``StoreReadingOptions``), and fails when the store cannot be read.
/// A conforming command names what it is and does; its spec, options and parsing come from here.
protocol StoreReadingCommand: CLICommand {
    /// What the command is called and does, as its help says.
    static var help: StoreReadingHelp { get }

    /// The mapping files, `--store` and `--json`.
    var options: StoreReadingOptions { get }

    /// The command with the values given on the command line.
    init(options: StoreReadingOptions)
}

extension StoreReadingCommand {
    /// `--store` and `--json`.
    static var options: StoreReadingOptions.Group { StoreReadingOptions.Group(json: help.json) }

    static var spec: CommandSpec {
        CommandSpec(
            name: help.name,
            abstract: help.abstract,
            positionals: .mappings,
            options: options.options,
            discussion: ExitCode.helpText([
                .success: help.success,
                .failure: "the store could not be read (e.g. no store yet: run 'rmap run' first)",
                .usage: ExitCode.usageMeaning,
            ]))
    }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        self.init(options: try Self.options.read(arguments))
    }
}

/// The help of a ``StoreReadingCommand``.
struct StoreReadingHelp: Sendable {
    /// The command's name, e.g. `diff`.
    let name: String
    /// The one-line abstract.
    let abstract: String
    /// What `--json` prints.
    let json: String
    /// What exit code 0 means.
    let success: String
}

import RMap

/// A command that reads a store's sync state (`diff`, `status`): it takes the mapping files,
/// `--store` and `--json` (``StoreReadingOptions``), and fails when the store cannot be read.
/// A conforming command names what it is and what it prints; its spec, options, parsing and
/// `run` come from here.
protocol StoreReadingCommand: CLICommand {
    /// What the command is called and does, as its help says.
    static var help: StoreReadingHelp { get }

    /// The mapping files, `--store` and `--json`.
    var options: StoreReadingOptions { get }

    /// The command with the values given on the command line.
    init(options: StoreReadingOptions)

    /// Reads what the command shows from the store and prints it.
    ///
    /// - Throws: the store's errors.
    func show(_ sync: SyncStore, model: MappingModel, context: CommandContext) throws
}

extension StoreReadingCommand {
    /// Loads the model, opens the store and shows what it holds, on a thread of its own (the
    /// store blocks on its files or connection).
    func run(_ context: CommandContext) async -> ExitCode {
        await DedicatedThread.run { [self] in
            options.withSyncStore(context) { sync, model in try show(sync, model: model, context: context) }
        }.get()
    }

    /// `--store` and `--json`.
    static var options: StoreReadingOptions.Group { StoreReadingOptions.Group(json: help.json) }

    static var spec: CommandSpec {
        CommandSpec(
            name: help.name,
            abstract: help.abstract,
            positionals: .mappings,
            options: options.options,
            exitStatuses: [
                (.success, help.success),
                (.failure, "the store could not be read (e.g. no store yet: run 'rmap run' first)"),
                (.usage, ExitCode.usageMeaning),
            ])
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

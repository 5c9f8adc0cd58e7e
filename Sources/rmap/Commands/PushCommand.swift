import RMap

/// `rmap push MAPPING...`: send local changes back to the server.
struct PushCommand: CLICommand {
    static let spec = CommandSpec(
        name: "push",
        abstract: "Send local changes back to the server, only what changed.",
        positional: "mapping",
        positionalHelp: "The mapping files (YAML), merged into one model.",
        options: [
            .value("store", "url", OptionValues.storeHelp),
            .flag("dry-run", "Print the requests instead of sending them."),
            .value("jobs", "n", "Send at most n requests at once."),
        ],
        discussion: ExitCode.helpText)

    /// The mapping files.
    var mappings: [String]
    /// `--store`.
    var store: PluginConfig?
    /// `--dry-run`.
    var dryRun: Bool
    /// `--jobs`.
    var jobs: Int?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        mappings = arguments.positionals
        store = try OptionValues.store(arguments, Self.spec)
        dryRun = arguments.flag("dry-run")
        jobs = try OptionValues.jobs(arguments, Self.spec)
    }

    func run(_ context: CommandContext) async -> ExitCode {
        guard let model = context.loadModel(mappings) else { return .usage }
        do {
            _ = try context.registry.makeStore(context.store(store, model: model))
        } catch {
            return context.fail("\(error)")
        }
        return context.fail("not available yet")
    }
}

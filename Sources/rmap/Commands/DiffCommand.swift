import RMap

/// `rmap diff MAPPING...`: the requests a push would send.
struct DiffCommand: CLICommand {
    static let spec = CommandSpec(
        name: "diff",
        abstract: "Print the requests that would send local changes back to the server.",
        positional: "mapping",
        positionalHelp: "The mapping files (YAML), merged into one model.",
        options: [
            .value("store", "url", OptionValues.storeHelp),
            .flag("json", "Print the plan as one JSON document."),
        ],
        discussion: ExitCode.helpText)

    /// The mapping files.
    var mappings: [String]
    /// `--store`.
    var store: PluginConfig?
    /// `--json`.
    var json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        mappings = arguments.positionals
        store = try OptionValues.store(arguments, Self.spec)
        json = arguments.flag("json")
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

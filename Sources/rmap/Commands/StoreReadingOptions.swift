import RMap

/// What the commands that read a store's sync state (`diff`, `status`) are given: the mapping
/// files, `--store` and `--json`, declared and read in one place.
struct StoreReadingOptions {
    /// The mapping files.
    var mappings: [String]
    /// `--store`.
    var store: PluginConfig?
    /// `--json`.
    var json: Bool

    /// The two options of a spec, with what `--json` prints.
    static func spec(json help: String) -> [OptionSpec] {
        [.value("store", "url", OptionValues.storeHelp), .flag("json", help)]
    }

    /// Reads the options from `arguments`, parsed against `spec`.
    init(_ arguments: ParsedArguments, _ spec: CommandSpec) throws(UsageError) {
        mappings = arguments.positionals
        store = try OptionValues.store(arguments, spec)
        json = arguments.flag("json")
    }

    /// Loads the model and opens the store as the sync API, then runs `body`; a store error
    /// fails the command with its message.
    func withSyncStore(
        _ context: CommandContext, _ body: (SyncStore, MappingModel) throws -> Void
    ) -> ExitCode {
        guard let model = context.loadModel(mappings) else { return .usage }
        do {
            try body(try SyncCommandStore.open(context, store, model: model), model)
            return .success
        } catch {
            return context.fail("\(error)")
        }
    }
}

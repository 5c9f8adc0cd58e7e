import RMap

/// What the commands that read a store's sync state (`diff`, `status`) are given: the mapping
/// files, `--store` and `--json`.
struct StoreReadingOptions {
    /// The group's options as one command declares them: `--store`, and `--json` with what it prints.
    struct Group: Sendable {
        /// `--store`.
        let store = Option.store
        /// `--json`.
        let json: Option<Bool>

        /// The group, with the help of `--json`.
        init(json help: String) {
            json = .json(help)
        }

        /// The options, for the command's spec.
        var options: [any OptionDeclaration] { [store, json] }

        /// The values given on the command line.
        ///
        /// - Throws: ``UsageError`` when `--store` names no store.
        func read(_ arguments: ParsedArguments) throws(UsageError) -> StoreReadingOptions {
            StoreReadingOptions(
                mappings: arguments.positionals, store: try arguments.value(store), json: try arguments.value(json))
        }
    }

    /// The mapping files.
    var mappings: [String]
    /// `--store`.
    var store: PluginConfig?
    /// `--json`.
    var json: Bool

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

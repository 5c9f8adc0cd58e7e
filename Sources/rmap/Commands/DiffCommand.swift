import Foundation
import RMap

/// `rmap diff MAPPING...`: the requests a push would send.
struct DiffCommand: StoreReadingCommand {
    static let help = StoreReadingHelp(
        name: "diff", abstract: "Print the requests that would send local changes back to the server.",
        json: "Print the plan as one JSON document.", success: "the plan was printed (also when it is empty)")

    /// The mapping files, `--store` and `--json`.
    let options: StoreReadingOptions

    func show(_ sync: SyncStore, model: MappingModel, context: CommandContext) throws {
        let plan = try sync.plan()
        context.output.write(options.json ? JSONWriter.serialize(plan.json) + "\n" : plan.text)
    }
}

/// Opens the store that `diff` and `push` read, as the sync API.
enum SyncCommandStore {
    /// The `--store` option, else the files' `store:`, else SQLite's default file.
    ///
    /// - Throws: ``SyncError`` when a file store does not exist yet or is empty (nothing was
    ///   fetched into it).
    static func open(_ context: CommandContext, _ option: PluginConfig?, model: MappingModel) throws -> SyncStore {
        let config = context.store(option, model: model)
        let file = StoreFile(config)
        if let path = file.path, !file.holdsStore { throw SyncError.noStore(path: path) }
        return SyncStore(store: try context.registry.makeStore(config), model: model)
    }
}

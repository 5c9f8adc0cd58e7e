/// What the store holds for one entity, as `rmap status` shows it.
public struct EntityStatus: Sendable, Equatable {
    /// The entity.
    public var entity: String
    /// Stored objects (with a row; a sub-entity's count is within its parent's).
    public var rows: Int
    /// Local changes waiting for a push, by kind.
    public var pending: [SyncChange.Kind: Int]
    /// Stored cursors: `""` for the entity's own, else the parent they belong to (`personId=3`).
    public var cursors: [String: JSONValue]
    /// When a run last advanced the entity's run state (a cursor, or a page that changed), ISO 8601 UTC.
    public var lastSync: String?

    /// The status as JSON: `entity`, `rows`, `pending` (`create`, `update`, `delete`), `cursors`, `last_sync`.
    public var json: JSONValue {
        .object(
            JSONObject([
                ("entity", .string(entity)),
                ("rows", .number(String(rows))),
                (
                    "pending",
                    .object(
                        JSONObject(SyncChange.Kind.allCases.map { ($0.rawValue, .number(String(pending[$0] ?? 0))) }))
                ),
                ("cursors", .object(JSONObject(cursors.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))),
                ("last_sync", lastSync.map(JSONValue.string) ?? .null),
            ]))
    }
}

/// Reads what ``SyncStore/status()`` shows: per entity, stored objects, pending local changes,
/// stored cursors and the last time a run advanced its state.
///
/// ```swift
/// let statuses = try EntityStatusReader(model: model, sync: schema, transactions: transactions).statuses()
/// ```
struct EntityStatusReader {
    let model: MappingModel
    let sync: SyncSchema
    let transactions: SyncTransactions

    /// Every entity's status, in the model's order, read in one read transaction.
    ///
    /// - Throws: ``PersistError`` for a run state that is not JSON, or the store's errors.
    func statuses() throws -> [EntityStatus] {
        try transactions.read {
            let engine = try transactions.engine
            let changes = try ChangeDetector(sync: sync, engine: engine).changes()
            let cursors = try RunStateTable.read(scope: IncrementalCursors.scope, from: engine)
            let pages = try RunStateTable.read(scope: EntityStatus.pageScope, from: engine)
            return try model.entities.map { entity in
                var status = EntityStatus(
                    entity: entity.name, rows: try rows(of: entity.name, on: engine), pending: [:], cursors: [:],
                    lastSync: nil)
                for change in changes where change.entity == entity.name {
                    status.pending[change.kind, default: 0] += 1
                }
                var stamps: [String] = []
                for (key, entry) in cursors where IncrementalCursors.owner(of: key) == entity.name {
                    status.cursors[String(key.dropFirst(entity.name.count).drop { $0 == " " })] = entry.value
                    stamps.append(entry.updatedAt)
                }
                stamps += pages.values.filter { $0.value.object?["entity"]?.string == entity.name }.map(\.updatedAt)
                status.lastSync = stamps.max()
                return status
            }
        }
    }

    /// How many rows are objects of exactly `entity` (not of its sub-entities).
    private func rows(of entity: String, on engine: any SQLEngine) throws -> Int {
        let type = try sync.stored.type(named: entity)
        let table = sync.stored.table(of: type)
        let condition = sync.stored.rows(of: [type], alias: "o", dialect: engine.dialect).map { " WHERE \($0)" } ?? ""
        return try engine.count("SELECT count(*) FROM \(engine.dialect.quote(table.name)) AS o\(condition)")
    }
}

extension EntityStatus {
    /// The run-state scope where sources remember pages, each entry naming its `entity` (the HTTP source's validators).
    public static let pageScope = "http"
}

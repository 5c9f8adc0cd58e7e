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
                    .object(JSONObject(SyncChange.Kind.allCases.map { ($0.rawValue, .number(String(pending[$0] ?? 0))) }))
                ),
                ("cursors", .object(JSONObject(cursors.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))),
                ("last_sync", lastSync.map(JSONValue.string) ?? .null),
            ]))
    }
}

extension SyncStore {
    /// Per entity of the model: stored objects, pending local changes, stored cursors and the
    /// last time a run advanced its state (docs/cli.md, `rmap status`).
    ///
    /// - Throws: ``PersistError`` for a run state that is not JSON, or the store's errors.
    public func status() throws -> [EntityStatus] {
        let changes = try self.changes()
        let (cursors, pages) = try runState()
        return try model.entities.map { entity in
            var status = EntityStatus(
                entity: entity.name, rows: try objects(of: entity.name).filter { $0.entity == entity.name }.count,
                pending: [:], cursors: [:], lastSync: nil)
            for change in changes where change.entity == entity.name { status.pending[change.kind, default: 0] += 1 }
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

extension SyncStore {
    /// The stored cursors and remembered pages, read without writing: in a read transaction,
    /// none when the run state's table is not there, so that `rmap status` reads a store it
    /// cannot write. An engine that cannot tell whether the table is there (the memory and
    /// JSON stores) reads it in a transaction that makes sure of it and is rolled back.
    private func runState() throws -> (cursors: [String: RunStateEntry], pages: [String: RunStateEntry]) {
        func read() throws -> (cursors: [String: RunStateEntry], pages: [String: RunStateEntry]) {
            (
                try RunStateTable.read(scope: IncrementalCursors.scope, from: backend),
                try RunStateTable.read(scope: EntityStatus.pageScope, from: backend)
            )
        }
        guard backend.tellsSchema else { return try backend.transaction(RunStateTable.layout, commit: false, read) }
        try backend.beginRead()
        defer { backend.rollback() }
        return try backend.holdsSchema(RunStateTable.layout) ? read() : ([:], [:])
    }
}

extension EntityStatus {
    /// The run-state scope where sources remember pages, each entry naming its `entity` (the HTTP source's validators).
    public static let pageScope = "http"
}

import Foundation

/// The requests of a push that were sent and whose answers are not recorded
/// yet, kept in the store's `_rmap_push_journal` table (docs/push.md, "The
/// journal").
///
/// A request's entry is committed before the request leaves and removed in
/// the transaction that records its answer, so after a crash, a kill or a
/// failed acknowledgement the next push knows what may have reached the
/// server: it sends a `POST` again with the same idempotency key (the server
/// answers as it did the first time, without creating a second object), and
/// a `PUT`, `PATCH` or `DELETE` again as it is (they are idempotent).
///
/// The table is a plain store table (its identity the change's key), written with the SQL every
/// engine runs.
package enum PushJournal {
    /// One request in flight.
    struct Entry: Equatable {
        /// The change's key: its table and identity (``SyncChange/journalKey(table:)``).
        var change: String
        /// The request's method.
        var method: String
        /// The idempotency key every attempt of the request carries.
        var idempotencyKey: String
        /// How many pushes sent the request.
        var attempts: Int
    }

    /// The journal table: `change` (its identity), `method`, `idempotency_key`, `attempts`.
    static let table = TableLayout(
        name: "_rmap_push_journal", rootEntity: "_rmap_push_journal",
        columns: [
            ColumnLayout(name: "change", type: .string), ColumnLayout(name: "method", type: .string),
            ColumnLayout(name: "idempotency_key", type: .string), ColumnLayout(name: "attempts", type: .int),
        ],
        roles: ["change", "method", "idempotency_key", "attempts"].map { .attribute($0) }, identity: [0],
        discriminator: nil)

    /// The layout that holds the journal table alone.
    package static let layout = StoreLayout(tables: [table])

    /// The entries, the table's rows (none when the table is not there).
    static func entries(on engine: any SQLEngine) throws -> [Entry] {
        guard !(try engine.columns(of: table.name)).isEmpty else { return [] }
        let q = engine.dialect.quote
        return try engine.rows(
            "SELECT \(engine.dialect.list(table.columns.map(\.name))) FROM \(q(table.name)) ORDER BY \(q("change"))",
            types: table.columns.map(\.type)
        ).compactMap(entry)
    }

    /// Writes an entry, replacing the one of its change. Call in a write transaction that made sure of the table.
    static func record(_ entry: Entry, on engine: any SQLEngine) throws {
        try engine.execute(
            "INSERT INTO \(engine.dialect.quote(table.name)) (\(engine.dialect.list(table.columns.map(\.name)))) "
                + "VALUES (?, ?, ?, ?) \(engine.dialect.onConflictUpdate(table))", row(entry))
    }

    /// Deletes the entry of a change. Call in a write transaction that made sure of the table.
    static func delete(_ change: String, on engine: any SQLEngine) throws {
        let q = engine.dialect.quote
        try engine.execute("DELETE FROM \(q(table.name)) WHERE \(q("change")) = ?", [.string(change)])
    }

    /// The entry of a stored row.
    static func entry(_ row: [Value]) -> Entry? {
        guard case .string(let change) = row[0], case .string(let method) = row[1],
            case .string(let key) = row[2]
        else { return nil }
        var attempts = 0
        if case .int(let count) = row[3] { attempts = Int(count) }
        return Entry(change: change, method: method, idempotencyKey: key, attempts: attempts)
    }

    /// The stored row of an entry.
    static func row(_ entry: Entry) -> [Value] {
        [.string(entry.change), .string(entry.method), .string(entry.idempotencyKey), .int(Int64(entry.attempts))]
    }
}

extension StoreLayout {
    /// A layout of tables that no entity fills (the push journal).
    init(tables: [TableLayout]) {
        self.tables = tables
        joinTables = []
        bindings = []
        tableOfRoot = [:]
    }
}

extension SyncChange {
    /// The change's key in the push journal: its table and identity (`people 2`,
    /// `people -1` for a temporary identity), or its row's handle when the
    /// identity is not set (`people #12`).
    func journalKey(table: String) -> String {
        let key = IdentityKey(identity)
        return key.isIncomplete ? "\(table) #\(reference ?? 0)" : "\(table) \(key)"
    }
}

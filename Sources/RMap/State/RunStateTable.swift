import Foundation

/// The store table `_rmap_state` that keeps run state: `scope`, `key`,
/// `value` (JSON text) and `updated_at`, unique by scope and key.
///
/// It is a plain store table, as the push journal is, so every engine keeps it
/// without code of its own.
package enum RunStateTable {
    /// The table.
    static let table = TableLayout(
        name: "_rmap_state", rootEntity: "_rmap_state",
        columns: [
            ColumnLayout(name: "scope", type: .string), ColumnLayout(name: "key", type: .string),
            ColumnLayout(name: "value", type: .string), ColumnLayout(name: "updated_at", type: .string),
        ],
        roles: ["scope", "key", "value", "updated_at"].map { .attribute($0) }, identity: [0, 1],
        discriminator: nil)

    /// The layout that holds the table alone.
    package static let layout = StoreLayout(tables: [table])

    // MARK: - Through an engine

    /// The entries of `scope`, by key: read in a transaction that only reads.
    ///
    /// - Throws: ``PersistError`` when a stored value is not JSON, or the engine's errors.
    static func read(scope: String, from engine: any SQLEngine) throws -> [String: RunStateEntry] {
        guard !(try engine.columns(of: table.name)).isEmpty else { return [:] }
        var entries: [String: RunStateEntry] = [:]
        let q = engine.dialect.quote
        try engine.query(
            "SELECT \(q("key")), \(q("value")), \(q("updated_at")) FROM \(q(table.name)) WHERE \(q("scope")) = ?",
            [.string(scope)], types: [.string, .string, .string]
        ) { row in
            guard case .string(let key) = row[0], case .string(let text) = row[1] else { return }
            let value: JSONValue
            do { value = try JSONReader.parse(text, origin: "_rmap_state") } catch {
                throw PersistError.runStateNotJSON(scope: scope, key: key, reason: "\(error)")
            }
            var updatedAt = ""
            if case .string(let stamp) = row[2] { updatedAt = stamp }
            entries[key] = RunStateEntry(scope: scope, key: key, value: value, updatedAt: updatedAt)
        }
        return entries
    }

    /// Writes `update`, stamped `now`. Call inside the run's write transaction.
    static func write(_ update: RunStateUpdate, to engine: any SQLEngine, now: Date = Date()) throws {
        guard !update.isEmpty else { return }
        try StoreSchema.ensure(layout, on: engine)
        let q = engine.dialect.quote
        let name = q(table.name)
        for scope in update.clearedScopes.sorted() {
            try engine.execute("DELETE FROM \(name) WHERE \(q("scope")) = ?", [.string(scope)])
        }
        for (scope, keys) in update.removed.sorted(by: { $0.key < $1.key }) {
            for key in keys.sorted() {
                try engine.execute(
                    "DELETE FROM \(name) WHERE \(q("scope")) = ? AND \(q("key")) = ?", [.string(scope), .string(key)])
            }
        }
        let stamp = Timestamp(milliseconds: Int64((now.timeIntervalSince1970 * 1000).rounded())).description
        for entry in update.serializedEntries {
            try engine.execute(
                "INSERT INTO \(name) (\(engine.dialect.list(table.columns.map(\.name)))) VALUES (?, ?, ?, ?) "
                    + engine.dialect.onConflictUpdate(table),
                [.string(entry.scope), .string(entry.key), .string(entry.json), .string(stamp)])
        }
    }
}

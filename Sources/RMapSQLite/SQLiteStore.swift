import Foundation
public import RMap

/// The `sqlite` store (the default): the graph in an SQLite file, one table
/// per root entity, with the base in `_rmap_base_<table>` tables.
///
/// Each write is one transaction: a failed or interrupted write leaves the
/// file as before. Stored forms follow MAPPING.md §5: decimals as the text
/// received (`"12.50"`), booleans 0/1, dates `YYYY-MM-DD`, date-times UTC
/// `YYYY-MM-DDTHH:MM:SS.sssZ`, arrays and JSON as JSON text.
///
/// ```swift
/// let store = try SQLiteStore(path: "rmap.sqlite")
/// let people = try await StoreReader(store: store, model: model).objects(of: "CRMPerson").fetchAll()
/// ```
public final class SQLiteStore: Store {
    /// The connection the store writes with.
    public let connection: SQLiteConnection
    private let sqlEngine: SQLiteEngine

    /// Whether opening created the file.
    private let created: Bool

    /// The engine over the store's connection.
    public func engine() throws -> any SQLEngine { sqlEngine }

    /// Removes the file opening created when it is still empty (a run failed before it committed).
    public func abandon() {
        guard created, let size = try? FileManager.default.attributesOfItem(atPath: connection.path)[.size] as? Int,
            size == 0
        else { return }
        try? FileManager.default.removeItem(atPath: connection.path)
    }

    /// Opens (creating when absent) the database at `path`; `:memory:` for a private in-memory database.
    ///
    /// - Parameters:
    ///   - path: the file.
    ///   - busyTimeout: how long a write waits for another process's lock before it fails (default 5 s).
    /// - Throws: ``SQLiteError`` when the file cannot be opened.
    public init(path: String = "rmap.sqlite", busyTimeout: Duration = .seconds(5)) throws {
        created = path != ":memory:" && !FileManager.default.fileExists(atPath: path)
        connection = try SQLiteConnection(path: path, busyTimeout: busyTimeout)
        sqlEngine = try SQLiteEngine(connection: connection)
    }
}

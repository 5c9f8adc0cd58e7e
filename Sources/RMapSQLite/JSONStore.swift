public import RMap

/// The `json` store: the graph as one JSON document, for review and tests.
///
/// The document is `{"<table>": [row...], "<join table>": [link...], "_base":
/// {"<table>": [row...]}}` with the tables of ``StoreLayout``, each row an
/// object of column -> value, and under `_base` the last server state of every
/// row (a row without one was created locally; editing the document is a local
/// edit that `rmap diff` and `rmap push` see).
///
/// While the store is open, its tables live in a scratch SQLite database in the
/// process's private folder (``PrivateFolder``), which its engine runs rmap's SQL
/// on as the `sqlite` store's does (``JSONDocumentMirror``): a table is loaded
/// from the document when the mapping names it, and a write transaction's commit
/// writes every table back, replacing the file atomically (a temporary file beside
/// it, renamed over it); a failed write leaves it as it was, and a transaction
/// that changes nothing leaves it alone. Two processes that write one file take
/// turns, as with SQLite: a write transaction holds `<path>.lock` and reads the
/// file again if another process replaced it meanwhile; one that waits longer
/// than `busyTimeout` fails with ``PersistError/locked(path:lockFile:waited:)``.
///
/// ```swift
/// let store = try JSONStore(path: "graph.json")
/// let people = try await StoreReader(store: store, model: model).objects(of: "CRMPerson").fetchAll()
/// ```
public final class JSONStore: Store {
    /// The document's path.
    public let path: String
    private let database: SQLiteStore
    private let mirror: JSONDocumentMirror

    /// Opens the document at `path` (an absent file is an empty store).
    ///
    /// - Parameter busyTimeout: how long a write waits for another process's write to end (default 5 s).
    /// - Throws: ``PersistError`` when the file cannot be read or is not a JSON object;
    ///   ``PrivateFolderError`` or ``SQLiteError`` when the scratch database cannot be made.
    public init(path: String, busyTimeout: Duration = .seconds(5)) throws {
        self.path = path
        mirror = try JSONDocumentMirror(file: JSONStoreFile(path: path, busyTimeout: busyTimeout))
        let scratch = try PrivateFolder.newFile(prefix: "json-store-", suffix: ".sqlite")
        mirror.scratch = scratch
        database = try SQLiteStore(path: scratch)
        // The document is what lasts: the scratch file need not survive a crash.
        try database.connection.execute("PRAGMA synchronous = OFF")
        database.connection.mirror = mirror
    }

    /// The engine over the scratch database, whose commits write the document.
    public func engine() throws -> any SQLEngine { try database.engine() }

    /// Loads the document's tables that `layout` names and the scratch database does not hold
    /// yet, in a write transaction that creates what `layout` needs (and, changing nothing the
    /// document holds, leaves the file alone).
    public func load(_ layout: StoreLayout) throws {
        try mirror.refresh(on: database.connection)
        guard mirror.holdsUnloaded(layout) else { return }
        let engine = try database.engine()
        try engine.transaction(.write) { try StoreSchema.ensure(layout, on: engine) }
    }
}

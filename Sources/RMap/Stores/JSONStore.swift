import Foundation

/// The `json` store: the graph as one JSON document, for review and tests.
///
/// The document is `{"<table>": [row...], "<join table>": [link...], "_base":
/// {"<table>": [row...]}}` with the tables of ``StoreLayout``, each row an
/// object of column -> value. A write replaces the file atomically at
/// commit (a temporary file beside it, renamed over it); a failed write leaves
/// it as it was. Two processes that write one file take turns, as with SQLite:
/// a write transaction holds `<path>.lock` and reads the file again if another
/// process replaced it meanwhile; one that waits longer than `busyTimeout` fails
/// with ``PersistError/locked(path:lockFile:waited:)``.
///
/// ```swift
/// let store = try JSONStore(path: "graph.json")
/// try store.write(graph, request: WriteRequest())
/// ```
public final class JSONStore: BackendStore {
    /// The store's primitives.
    public let backend: any SyncBackend
    /// The document's path.
    public let path: String

    /// How deep the document may nest: a stored `json` value (at most
    /// ``JSONReader/maxDepth`` - 1 deep, as it came inside a record) sits 4
    /// levels down (document, `_base`, table, row), so every value written reads back.
    static let maxDepth = JSONReader.maxDepth + 4

    /// Opens the document at `path` (an absent file is an empty store).
    ///
    /// - Parameter busyTimeout: how long a write waits for another process's write to end (default 5 s).
    /// - Throws: ``PersistError`` when the file cannot be read or is not a JSON object.
    public init(path: String, busyTimeout: Duration = .seconds(5)) throws {
        self.path = path
        backend = try MemoryBackend(file: JSONStoreFile(path: path, busyTimeout: busyTimeout))
    }
}

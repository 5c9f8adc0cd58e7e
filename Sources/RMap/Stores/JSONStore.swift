import Foundation

/// The `json` store: the graph as one JSON document, for review and tests.
///
/// The document is `{"<table>": [row...], "<join table>": [link...], "_base":
/// {"<table>": [row...]}}` with the tables of ``StoreLayout``, each row an
/// object of column -> value. A write replaces the file atomically at
/// commit; a failed write leaves it as it was.
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
    /// - Throws: ``PersistError`` when the file cannot be read or is not a JSON object.
    public init(path: String) throws {
        self.path = path
        var document = JSONObject()
        if FileManager.default.fileExists(atPath: path) {
            let data: Data
            do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
                throw PersistError.unreadableFile(path: path, reason: error.localizedDescription)
            }
            guard let object = try JSONReader.parse(data, origin: path, maxDepth: Self.maxDepth).object else {
                throw PersistError.notOneObject(path: path)
            }
            document = object
        }
        let pending = PendingTables(document: document, origin: path)
        backend = MemoryBackend(pending: pending) { database in
            let text = JSONWriter.serialize(pending.document(of: database))
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw PersistError.unwritableFile(path: path, reason: error.localizedDescription)
            }
        }
    }
}

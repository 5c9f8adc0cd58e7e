public import RMap

/// The `memory` store: the graph and its base in a private in-memory SQLite database, for
/// library use and tests.
///
/// It is the `sqlite` store without a file (``SQLiteStore`` on `:memory:`): a run stages,
/// connects and merges in its engine, and the sync API and readers query it. It forgets
/// everything when released.
///
/// ```swift
/// let store = try MemoryStore()
/// let people = try await StoreReader(store: store, model: model).objects(of: "CRMPerson").fetchAll()
/// ```
public final class MemoryStore: Store {
    private let database: SQLiteStore

    /// Creates an empty store.
    ///
    /// - Throws: ``SQLiteError`` when SQLite cannot open an in-memory database.
    public init() throws {
        database = try SQLiteStore(path: ":memory:")
    }

    /// The engine over the in-memory database.
    public func engine() throws -> any SQLEngine { try database.engine() }
}

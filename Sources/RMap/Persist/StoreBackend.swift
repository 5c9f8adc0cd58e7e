/// A stored row and its handle.
public struct StoredRow: Sendable, Equatable {
    /// The row's handle.
    public var reference: RowReference
    /// The values, parallel to ``TableLayout/columns``.
    public var values: [Value]

    /// Creates a stored row.
    public init(reference: RowReference, values: [Value]) {
        self.reference = reference
        self.values = values
    }
}

/// The row primitives of a built-in store's engine, older than ``SQLEngine``: what the stores'
/// schema checks and the test suite's store readers still use (runs, `diff`, `push` and the
/// readers run SQL on an ``EngineStore``'s engine). ``SyncBackend`` refines it with reads and
/// edits of stored objects.
///
/// Every call between ``begin()`` and ``commit()`` belongs to one transaction; after
/// ``rollback()`` the store must be exactly as before ``begin()``, schema included. Values are
/// typed by their column's ``ColumnLayout/type``: an engine reads back the ``Value`` case that
/// was written (`.decimal` for `decimal`, `.array` for `[T]`, ...).
public protocol StoreBackend: AnyObject {
    /// Starts a write transaction.
    func begin() throws
    /// Makes everything since ``begin()`` durable.
    func commit() throws
    /// Undoes everything since ``begin()``.
    func rollback()

    /// Creates missing tables (entity, base and join tables) and adds missing
    /// columns; never drops anything.
    func ensureSchema(_ layout: StoreLayout) throws
    /// Inserts rows, replacing the row with the same identity (rows with a null identity are added).
    func upsertRows(_ table: TableLayout, _ rows: [[Value]]) throws
    /// Inserts base rows, replacing the base with the same identity.
    func upsertBase(_ table: TableLayout, _ rows: [[Value]]) throws
    /// Records that stored rows (these values, by identity) equal the server's state now: their
    /// base rows and notes of a local creation go (a row without them is its own base).
    func settleBase(_ table: TableLayout, _ rows: [[Value]]) throws

    /// Every row with its handle, in insertion order.
    func scanRows(_ table: TableLayout) throws -> [StoredRow]
    /// Every base row.
    func scanBase(_ table: TableLayout) throws -> [[Value]]
}

extension StoreBackend {
    /// Runs `body` in a transaction over `layout`'s schema: committed when `commit` is true
    /// and `body` returns, rolled back otherwise (and on any throw, which is rethrown).
    public func transaction<Result>(
        _ layout: StoreLayout, commit: Bool = true, _ body: () throws -> Result
    ) throws -> Result {
        try begin()
        do {
            try ensureSchema(layout)
            let result = try body()
            if commit { try self.commit() } else { rollback() }
            return result
        } catch {
            rollback()
            throw error
        }
    }
}

/// The edits of stored objects that the test suite's store readers make, on a ``StoreBackend``.
public protocol SyncBackend: StoreBackend {
    /// True when the tables hold `layout` already (``ensureSchema(_:)`` would change nothing),
    /// found by reading only.
    func holdsSchema(_ layout: StoreLayout) throws -> Bool
    /// Every link of a join table: source identity values, then destination identity values.
    func scanLinks(_ join: JoinTableLayout) throws -> [[Value]]
    /// Replaces the values of the row with this handle.
    func updateRow(_ table: TableLayout, reference: RowReference, values: [Value]) throws
    /// Whether the writes that follow, until the transaction ends or the next call, are local
    /// edits (the library's `update`, `insert`, `delete`) rather than rmap's own writes of the
    /// server's state: an engine that captures bases itself (SQLite's triggers) captures them
    /// for local edits only. Writes are rmap's own when a write transaction begins.
    func setLocalEdits(_ local: Bool) throws
}

extension SyncBackend {
    /// Runs `body` as local edits (``setLocalEdits(_:)``), then switches back to rmap's own writes.
    public func editingLocally<Result>(_ body: () throws -> Result) throws -> Result {
        try setLocalEdits(true)
        let result: Result
        do {
            result = try body()
        } catch {
            try? setLocalEdits(false)
            throw error
        }
        try setLocalEdits(false)
        return result
    }
}

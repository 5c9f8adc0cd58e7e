import RMap

/// Another form of an SQLite database that its transactions keep up to date: the `json` store's
/// document, of which the database is a scratch copy (``JSONDocumentMirror``). The connection's
/// engine (``SQLiteEngine``) tells it each step of a transaction.
protocol SQLiteMirror: AnyObject {
    /// Before `BEGIN`: a write transaction takes the mirror's lock; either kind first brings the
    /// database up to date when another process changed the mirror.
    func willBegin(writing: Bool, on connection: SQLiteConnection) throws
    /// Before a query outside a transaction: brings the database up to date when another process
    /// changed the mirror. (A statement outside a transaction that writes runs in one of its own.)
    func refresh(on connection: SQLiteConnection) throws
    /// Before the columns of `table` are looked up: loads a table that rmap makes with SQL of its
    /// own rather than a schema change (its remembered objects) when the mirror holds it.
    func willInspect(_ table: String, on connection: SQLiteConnection) throws
    /// After a schema change ran, in its transaction: fills the tables it created from the mirror.
    func created(_ changes: [SchemaDiff.Change], on connection: SQLiteConnection) throws
    /// After the base capture of `layout` was made sure of, in the same transaction.
    func captured(_ layout: StoreLayout, on connection: SQLiteConnection) throws
    /// Before a write transaction's `COMMIT`, inside the ``CommitGate``: writes the mirror when the
    /// transaction changed what it holds. A throw leaves the mirror as it was (the caller rolls back).
    func willCommit(on connection: SQLiteConnection) throws
    /// After the transaction ended: committed, or rolled back (or never begun).
    func didEnd(committed: Bool)
}

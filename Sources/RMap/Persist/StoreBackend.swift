/// A row's handle in its table, valid while the row exists (SQLite's `rowid`).
public typealias RowReference = Int64

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

/// What a store holds for one identity: the current row and the base (the last server state).
public struct StoredState: Sendable, Equatable {
    /// The current row; `nil` when it was deleted locally (or never existed).
    public var row: [Value]?
    /// The base; `nil` for rows never seen from the server.
    public var base: [Value]?

    /// Creates a state.
    public init(row: [Value]?, base: [Value]?) {
        self.row = row
        self.base = base
    }
}

/// The write path of a store engine: the primitives ``PersistWriter`` needs for a
/// run's write (the three-way merge, counts, orphans, released children, links)
/// and the run state. ``SyncBackend`` refines it with what `diff`, `push` and
/// ``SyncStore`` need to read and edit stored objects.
///
/// Calls are batch-oriented so that a network engine needs a few round trips
/// per batch. Every call between ``begin()`` and ``commit()`` belongs to one
/// transaction; after ``rollback()`` the store must be exactly as before
/// ``begin()``, schema included. Values are typed by their column's
/// ``ColumnLayout/type``: an engine reads back the ``Value`` case that the
/// writer gave (`.decimal` for `decimal`, `.array` for `[T]`, ...).
public protocol StoreBackend: AnyObject {
    /// Starts the transaction of a write.
    func begin() throws
    /// Makes everything since ``begin()`` durable.
    func commit() throws
    /// Undoes everything since ``begin()``.
    func rollback()

    /// Creates missing tables (entity, base and join tables) and adds missing
    /// columns; never drops anything.
    func ensureSchema(_ layout: StoreLayout) throws
    /// True when a table has neither rows nor base rows.
    func isEmpty(_ table: TableLayout) throws -> Bool
    /// The row and base of each identity that the store knows, keyed by identity.
    func fetch(_ table: TableLayout, identities: [[Value]]) throws -> [IdentityKey: StoredState]
    /// For each incoming row (`nil` where the payload had no key, the identity whole), true
    /// when the store holds a base for its identity equal to it on every column it has: the
    /// three-way merge would change nothing, so ``PersistWriter`` counts it unchanged without
    /// fetching or decoding what is stored. Compared in the engine (stored forms equal means
    /// values equal); an engine that cannot tell answers `false`, the default, which costs only
    /// the full merge.
    func matchesBase(_ table: TableLayout, _ rows: [[Value?]]) throws -> [Bool]
    /// Inserts rows, replacing the row with the same identity (rows with a null identity are added).
    func upsertRows(_ table: TableLayout, _ rows: [[Value]]) throws
    /// Inserts base rows, replacing the base with the same identity.
    func upsertBase(_ table: TableLayout, _ rows: [[Value]]) throws
    /// Records that stored rows (these values, by identity) equal the server's state now: each
    /// becomes its own base (as ``upsertBase(_:_:)``, the default; an engine that keeps bases
    /// only for rows changed locally drops theirs instead).
    func settleBase(_ table: TableLayout, _ rows: [[Value]]) throws
    /// Inserts rows the store holds nothing for (neither a row nor a base), as the server's
    /// state: each row with a complete identity is also its own base (as ``upsertRows(_:_:)``
    /// then ``upsertBase(_:_:)`` of those rows, the default; an engine that keeps bases only for
    /// rows changed locally writes the rows alone).
    func insertFresh(_ table: TableLayout, _ rows: [[Value]]) throws
    /// The identities of every row and base row, each with its `type` value when the table has one.
    func identities(_ table: TableLayout) throws -> [(identity: [Value], type: String?)]
    /// Deletes the rows and base rows with these identities.
    func delete(_ table: TableLayout, identities: [[Value]]) throws
    /// Removes every link of `sources` (source identity values), then adds `links`
    /// (source identity values followed by destination identity values; a link already there stays once).
    func replaceLinks(_ join: JoinTableLayout, sources: [[Value]], links: [[Value]]) throws

    /// For each source (identity values), true when the join table holds exactly `links` of the
    /// same position for it (rows as ``replaceLinks(_:sources:links:)`` takes them; for a
    /// `union` join, at least those): ``PersistWriter`` leaves those links alone, so an
    /// unchanged re-run rewrites none. An engine that cannot tell answers `false`, the default.
    func holdsLinks(_ join: JoinTableLayout, sources: [[Value]], links: [[[Value]]]) throws -> [Bool]

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

    /// Knows of no base that matches: every row goes through the full merge.
    public func matchesBase(_ table: TableLayout, _ rows: [[Value?]]) throws -> [Bool] {
        Array(repeating: false, count: rows.count)
    }

    /// Knows of no links: every source's links are replaced.
    public func holdsLinks(_ join: JoinTableLayout, sources: [[Value]], links: [[[Value]]]) throws -> [Bool] {
        Array(repeating: false, count: sources.count)
    }

    /// The rows become their own bases.
    public func settleBase(_ table: TableLayout, _ rows: [[Value]]) throws {
        try upsertBase(table, rows)
    }

    /// Inserts the rows, then the rows with a complete identity as bases.
    public func insertFresh(_ table: TableLayout, _ rows: [[Value]]) throws {
        try upsertRows(table, rows)
        guard !table.identity.isEmpty else { return }
        try upsertBase(table, rows.filter { row in table.identity.allSatisfy { !row[$0].isNull } })
    }
}

/// The sync path of a store engine: what ``SyncStore`` and ``PersistedObjects``
/// (`diff`, `status`, `push`) need beyond the write path, that is a transaction
/// that only reads, and the edits of single rows, bases and links.
///
/// A read transaction (``beginRead()``) sees one consistent state of the store
/// and never waits for, nor blocks, a write of another connection: SQLite's
/// deferred `BEGIN` (a shared lock), PostgreSQL's `REPEATABLE READ READ ONLY`
/// without the advisory lock. It assumes the schema is in place (nothing
/// checks it) and ends with ``rollback()``.
public protocol SyncBackend: StoreBackend {
    /// Starts a transaction that only reads, ended by ``rollback()``.
    func beginRead() throws
    /// True when the tables hold `layout` already (``ensureSchema(_:)`` would change nothing),
    /// found by reading only, e.g. in a read transaction. An engine that cannot tell answers
    /// `false`, the default: ``SyncStore`` then reads in a write transaction that makes sure of it.
    func holdsSchema(_ layout: StoreLayout) throws -> Bool
    /// Whether ``holdsSchema(_:)`` tells (an SQL engine reads its catalog), so that a `false`
    /// means the tables are not in place; `false`, the default, when it cannot.
    var tellsSchema: Bool { get }
    /// Every link of a join table: source identity values, then destination identity values.
    func scanLinks(_ join: JoinTableLayout) throws -> [[Value]]
    /// The links of these sources (identity values), as ``scanLinks(_:)`` gives them. The
    /// default filters ``scanLinks(_:)``; an engine reads by the join table's key.
    func links(_ join: JoinTableLayout, sources: [[Value]]) throws -> [[Value]]
    /// The links to one destination (identity values), as ``scanLinks(_:)`` gives them. The
    /// default filters ``scanLinks(_:)``; an engine reads by the destination columns.
    func links(_ join: JoinTableLayout, destination: [Value]) throws -> [[Value]]
    /// Replaces the values of the row with this handle.
    func updateRow(_ table: TableLayout, reference: RowReference, values: [Value]) throws
    /// Deletes base rows by identity.
    func deleteBase(_ table: TableLayout, identities: [[Value]]) throws
    /// The rows of a table that may differ from their base, each with it (`nil`: created
    /// locally), in insertion order, and the bases whose row was deleted locally: what
    /// `diff` compares. The default is every row (``scanRows(_:)`` beside ``scanBase(_:)``);
    /// an engine that keeps bases only for rows changed locally reads those alone.
    func localChanges(_ table: TableLayout) throws -> TableChanges
    /// Whether the writes that follow, until the transaction ends or the next call, are local
    /// edits (the library's `update`, `insert`, `delete`) rather than rmap's own writes of the
    /// server's state: an engine that captures bases itself (SQLite's triggers) captures them
    /// for local edits only. Writes are rmap's own when a write transaction begins. The default
    /// does nothing: the sync API keeps such an engine's bases itself.
    func setLocalEdits(_ local: Bool) throws
}

extension SyncBackend {
    /// Cannot tell: the schema is made sure of by a write.
    public func holdsSchema(_ layout: StoreLayout) throws -> Bool { false }

    /// Cannot tell.
    public var tellsSchema: Bool { false }

    /// Every row with its base, then the bases without a row.
    public func localChanges(_ table: TableLayout) throws -> TableChanges {
        var bases: [IdentityKey: [Value]] = [:]
        for base in try scanBase(table) { bases[IdentityKey(table.identityValues(of: base))] = base }
        var rows: [(row: StoredRow, base: [Value]?)] = []
        for row in try scanRows(table) {
            let key = IdentityKey(table.identityValues(of: row.values))
            rows.append((row, key.isIncomplete ? nil : bases.removeValue(forKey: key)))
        }
        return TableChanges(rows: rows, deleted: Array(bases.values))
    }

    /// Every link, kept when its source is one of `sources`.
    public func links(_ join: JoinTableLayout, sources: [[Value]]) throws -> [[Value]] {
        let wanted = Set(sources.map(IdentityKey.init))
        return try scanLinks(join).filter { wanted.contains(IdentityKey(Array($0.prefix(join.sourceColumnCount)))) }
    }

    /// Every link, kept when its destination is `destination`.
    public func links(_ join: JoinTableLayout, destination: [Value]) throws -> [[Value]] {
        let columns = join.destinationColumns.indices
        return try scanLinks(join).filter { Array($0[columns]) == destination }
    }

    /// Nothing to switch: the sync API writes the bases.
    public func setLocalEdits(_ local: Bool) throws {}

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

/// What ``SyncBackend/localChanges(_:)`` reads of one table.
public struct TableChanges {
    /// Rows that may differ from their base, each with it (`nil`: created locally), in insertion order.
    public var rows: [(row: StoredRow, base: [Value]?)]
    /// Bases whose row was deleted locally, in no particular order.
    public var deleted: [[Value]]

    /// Creates what a table holds of local changes.
    public init(rows: [(row: StoredRow, base: [Value]?)], deleted: [[Value]]) {
        self.rows = rows
        self.deleted = deleted
    }
}

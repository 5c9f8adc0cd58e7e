/// The transactions of a ``SyncStore``: opens its engine at first use, runs the read and write
/// scopes its methods run in (or join), and the batches a push's requests commit in together.
///
/// ```swift
/// let transactions = SyncTransactions(layout: sync.layout) { try store.engine() }
/// let count = try transactions.read { try transactions.engine.count("SELECT count(*) FROM people") }
/// ```
///
/// Not `Sendable`, like the store it serves: one thread at a time (the engine is one connection).
final class SyncTransactions {
    /// What a scope may do.
    enum Scope {
        /// Reads in a read transaction: no write lock, no schema check.
        case read
        /// Reads and writes in a write transaction over the model's tables.
        case write
    }

    /// The model's tables, made sure of by every write transaction.
    private let layout: StoreLayout
    private let open: () throws -> any SQLEngine
    private var opened: (any SQLEngine)?
    /// The scope running now, if any.
    private var scope: Scope?
    /// True once a read found the model's tables in place: reads do not look again.
    private var schemaChecked = false
    /// The open batch (``batched(_:)``) that the write scopes run now join, if any.
    private(set) var batch: SyncBatch?

    /// Transactions over the model's tables `layout` on the engine `open` gives at the first use.
    init(layout: StoreLayout, open: @escaping () throws -> any SQLEngine) {
        self.layout = layout
        self.open = open
    }

    /// The store's engine, opened on first use.
    var engine: any SQLEngine {
        get throws {
            if let opened { return opened }
            let engine = try open()
            opened = engine
            return engine
        }
    }

    /// Runs `body` in one read transaction (``SyncStore/read(_:)``), or in a write transaction
    /// while the model's tables are not known to be in place. Inside another scope, `body` joins it.
    func read<Result>(_ body: () throws -> Result) throws -> Result {
        if scope != nil { return try body() }
        guard try schemaInPlace() else { return try write(journal: false, body) }
        return try readAsItIs(body)
    }

    /// Runs `body` in one read transaction over the store as it is, whatever tables it lacks
    /// (a new store is not given the model's schema). Inside another scope, `body` joins it.
    func readAsItIs<Result>(_ body: () throws -> Result) throws -> Result {
        if scope != nil { return try body() }
        let engine = try engine
        try engine.begin(.read)
        scope = .read
        defer {
            scope = nil
            engine.rollback()
        }
        return try body()
    }

    /// Runs `body` in one write transaction over the model's tables (``SyncStore/write(_:)``), which
    /// also makes sure of the push journal's table when `journal` is true. Inside a write scope,
    /// `body` joins it.
    ///
    /// - Throws: ``SyncError`` inside a read scope, what `body` throws, or the store's errors.
    func write<Result>(journal: Bool, _ body: () throws -> Result) throws -> Result {
        switch scope {
        case .write:
            if let batch { return try batch.join(body) }  // the batch made sure of the journal's table
            if journal { try StoreSchema.ensure(PushJournal.layout, on: engine) }
            return try body()
        case .read:
            throw SyncError.writeInsideRead
        case nil:
            scope = .write
            defer { scope = nil }
            let engine = try engine
            return try engine.transaction(.write) {
                try StoreSchema.ensure(layout, on: engine)
                if journal { try StoreSchema.ensure(PushJournal.layout, on: engine) }
                return try body()
            }
        }
    }

    /// Runs `body` in one transaction over the model's tables and the push journal, which the
    /// write scopes inside it join instead of committing each.
    ///
    /// - Throws: the first error of a write inside the batch (the batch is rolled back then,
    ///   whatever `body` did with that error), or the commit's.
    func batched(_ body: () throws -> Void) throws {
        precondition(batch == nil, "batches do not nest")
        precondition(scope == nil, "a batch is a write scope of its own")
        let batch = SyncBatch()
        self.batch = batch
        scope = .write
        defer {
            self.batch = nil
            scope = nil
        }
        let engine = try engine
        try engine.transaction(.write) {
            try StoreSchema.ensure(layout, on: engine)
            try StoreSchema.ensure(PushJournal.layout, on: engine)
            try body()
            if let failure = batch.failure { throw failure }
        }
    }

    /// True when the model's tables are known to be in place, found once in a read transaction.
    private func schemaInPlace() throws -> Bool {
        if schemaChecked { return true }
        let engine = try engine
        try engine.begin(.read)
        defer { engine.rollback() }
        schemaChecked = try StoreSchema.holds(layout, on: engine)
        return schemaChecked
    }
}

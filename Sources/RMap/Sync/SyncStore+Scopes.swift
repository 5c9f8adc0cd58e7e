// MARK: - Read and write scopes

extension SyncStore {
    /// What a scope of a ``SyncStore`` may do.
    enum Scope {
        /// Reads in a read transaction: no write lock, no schema check.
        case read
        /// Reads and writes in a write transaction over the model's tables.
        case write
    }

    /// Runs `body` in one transaction that only reads: it neither waits for nor blocks a write
    /// of another connection (SQLite's shared lock, PostgreSQL's read-only snapshot), and
    /// nothing is committed.
    ///
    /// The schema is not checked on reads: the first read of a `SyncStore` finds, by reading,
    /// whether the model's tables are in place and keeps a yes. Until then (a new store) a read
    /// runs as a ``write(_:)``, which creates what is missing. Inside another scope, `body` joins it.
    ///
    /// ```swift
    /// let (changes, people) = try sync.read { (try sync.changes(), try sync.objects(of: "CRMPerson")) }
    /// ```
    ///
    /// - Throws: what `body` throws, or the store's errors.
    public func read<Result>(_ body: () throws -> Result) throws -> Result {
        if scope != nil { return try body() }
        guard try schemaInPlace() else { return try write(body) }
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

    /// Runs `body` in one write transaction over the model's tables (SQLite's `BEGIN IMMEDIATE`,
    /// PostgreSQL's advisory lock), which makes sure of the schema first: committed when `body`
    /// returns, rolled back when it throws. Inside a write scope, `body` joins it.
    ///
    /// ```swift
    /// try sync.write {
    ///     try sync.update(ada, ["email": .string("ada@lovelace.org")])
    ///     try sync.delete(charles)
    /// }
    /// ```
    ///
    /// - Throws: ``SyncError`` inside a read scope, what `body` throws, or the store's errors.
    public func write<Result>(_ body: () throws -> Result) throws -> Result {
        try write(journal: false, body)
    }

    /// A ``write(_:)`` that also makes sure of the push journal's table when `journal` is true.
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
                try StoreSchema.ensure(sync.layout, on: engine)
                if journal { try StoreSchema.ensure(PushJournal.layout, on: engine) }
                return try body()
            }
        }
    }

    /// True when the model's tables are known to be in place, found once in a read transaction.
    private func schemaInPlace() throws -> Bool {
        if schemaChecked { return true }
        let engine = try engine
        try engine.begin(.read)
        defer { engine.rollback() }
        schemaChecked = try StoreSchema.holds(sync.layout, on: engine)
        return schemaChecked
    }
}

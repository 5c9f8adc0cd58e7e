/// The ``SyncBackend`` of the `memory` and `json` stores: tables held in
/// memory, a transaction being a copy of them to restore on rollback.
///
/// With a file (the `json` store), each transaction first reads the file again when
/// another process replaced it, and a write transaction holds the file's lock from
/// ``begin()`` to its commit or rollback, which writes the file.
final class MemoryBackend: SyncBackend {
    /// The committed contents (and, during a transaction, the current ones).
    private(set) var database = MemoryDatabase()
    private var snapshot: MemoryDatabase?
    /// The `json` store's file, when there is one.
    private let file: JSONStoreFile?
    /// Tables read from the file, turned into typed rows when the layout names them.
    private var pending: PendingTables?
    /// True from a write transaction's ``begin()`` to its end (the file's lock is held).
    private var writing = false
    /// True once the transaction changed a row, a base or a link: a commit without one leaves
    /// the file alone (`rmap diff` reads a JSON store it cannot write).
    private var changed = false

    /// A backend over nothing: the `memory` store.
    init() {
        file = nil
    }

    /// A backend over `file`, read now: the `json` store.
    ///
    /// - Throws: ``PersistError`` when the file cannot be read.
    init(file: JSONStoreFile) throws {
        self.file = file
        pending = try file.read()
    }

    func begin() throws {
        guard snapshot == nil else { throw PersistError.transactionAlreadyOpen }
        try file?.lockForWriting()
        writing = file != nil
        do {
            try refresh()
        } catch {
            endWrite()
            throw error
        }
        snapshot = database
        changed = false
    }

    func commit() throws {
        defer { endWrite() }
        if let file, let pending, changed {
            let text = JSONWriter.serialize(pending.document(of: database))
            try CommitGate.commit { try file.write(text) }
        }
        snapshot = nil
    }

    /// A transaction ended by ``rollback()``: nothing is written back, and no lock is taken.
    func beginRead() throws {
        guard snapshot == nil else { throw PersistError.transactionAlreadyOpen }
        try refresh()
        snapshot = database
    }

    func rollback() {
        if let snapshot { database = snapshot }
        snapshot = nil
        endWrite()
    }

    /// Starts again from the file when another process replaced it since it was read.
    private func refresh() throws {
        guard let fresh = try file?.changed() else { return }
        pending = fresh
        database = MemoryDatabase()
    }

    private func endWrite() {
        if writing { file?.unlock() }
        writing = false
    }

    func ensureSchema(_ layout: StoreLayout) throws {
        for table in layout.tables {
            if database.tables[table.name] == nil {
                database.tables[table.name] =
                    try pending?.table(table) ?? MemoryTable(columns: table.columns, identity: table.identity)
            }
            database.tables[table.name]?.adopt(table)
        }
        for join in layout.joinTables where database.joins[join.name] == nil {
            database.joins[join.name] =
                try pending?.join(join) ?? MemoryJoin(columns: join.columns, sourceColumnCount: join.sourceColumnCount)
        }
    }

    func isEmpty(_ table: TableLayout) throws -> Bool {
        let stored = try self.table(table)
        return stored.rows.isEmpty && stored.base.isEmpty
    }

    func fetch(_ table: TableLayout, identities: [[Value]]) throws -> [IdentityKey: StoredState] {
        let stored = try self.table(table)
        var states: [IdentityKey: StoredState] = [:]
        let width = table.columns.count
        for identity in identities {
            let key = IdentityKey(identity)
            let row = stored.references[key].flatMap { stored.rows[$0] }
            let base = stored.base[key]
            guard row != nil || base != nil else { continue }
            states[key] = StoredState(
                row: row.map { Array($0.prefix(width)) }, base: base.map { Array($0.prefix(width)) })
        }
        return states
    }

    func upsertRows(_ table: TableLayout, _ rows: [[Value]]) throws {
        try modify(table) { stored in
            for row in rows { stored.upsert(row) }
        }
    }

    func upsertBase(_ table: TableLayout, _ rows: [[Value]]) throws {
        try modify(table) { stored in
            for row in rows {
                let key = stored.key(row)
                stored.base[key] = stored.fitted(row, keeping: stored.base[key])
            }
        }
    }

    func identities(_ table: TableLayout) throws -> [(identity: [Value], type: String?)] {
        let stored = try self.table(table)
        func entry(_ row: [Value]) -> (identity: [Value], type: String?) {
            var type: String?
            if let discriminator = table.discriminator, case .string(let value) = row[discriminator] { type = value }
            return (table.identityValues(of: row), type)
        }
        return stored.rows.keys.sorted().compactMap { stored.rows[$0].map(entry) } + stored.base.values.map(entry)
    }

    func delete(_ table: TableLayout, identities: [[Value]]) throws {
        try modify(table) { stored in
            for identity in identities {
                let key = IdentityKey(identity)
                if let reference = stored.references.removeValue(forKey: key) { stored.rows[reference] = nil }
                stored.base[key] = nil
            }
        }
    }

    func replaceLinks(_ join: JoinTableLayout, sources: [[Value]], links: [[Value]]) throws {
        guard database.joins[join.name] != nil else { throw missing(join.name) }
        changed = true
        // Changed in place: copying the stored links out and back would make each batch cost the whole table.
        for source in sources { database.joins[join.name]?.links[IdentityKey(source)] = nil }
        for link in links { database.joins[join.name]?.add(link) }
    }

    func scanRows(_ table: TableLayout) throws -> [StoredRow] {
        let stored = try self.table(table)
        let width = table.columns.count
        return stored.rows.keys.sorted().compactMap { reference in
            stored.rows[reference].map { StoredRow(reference: reference, values: Array($0.prefix(width))) }
        }
    }

    func scanBase(_ table: TableLayout) throws -> [[Value]] {
        let width = table.columns.count
        return try self.table(table).base.values.map { Array($0.prefix(width)) }
    }

    func scanLinks(_ join: JoinTableLayout) throws -> [[Value]] {
        guard let stored = database.joins[join.name] else { throw missing(join.name) }
        return stored.links.values.flatMap { $0 }
    }

    func updateRow(_ table: TableLayout, reference: RowReference, values: [Value]) throws {
        try modify(table) { stored in
            guard let old = stored.rows[reference] else { return }
            let oldKey = stored.key(old)
            if stored.references[oldKey] == reference { stored.references[oldKey] = nil }
            let row = stored.fitted(values, keeping: old)
            stored.rows[reference] = row
            let key = stored.key(row)
            if !key.isIncomplete { stored.references[key] = reference }
        }
    }

    func deleteBase(_ table: TableLayout, identities: [[Value]]) throws {
        try modify(table) { stored in
            for identity in identities { stored.base[IdentityKey(identity)] = nil }
        }
    }

    private func table(_ layout: TableLayout) throws -> MemoryTable {
        guard let table = database.tables[layout.name] else { throw missing(layout.name) }
        return table
    }

    /// Changes a table in place (no copy of its rows).
    private func modify(_ layout: TableLayout, _ body: (inout MemoryTable) -> Void) throws {
        guard database.tables[layout.name] != nil else { throw missing(layout.name) }
        changed = true
        body(&database.tables[layout.name]!)
    }

    private func missing(_ name: String) -> PersistError {
        .missingTable(name)
    }
}

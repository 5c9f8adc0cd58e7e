import RMap

/// The `json` store's document as the mirror of its scratch SQLite database (``JSONStore``).
///
/// The document is read at open. A table is loaded from it when a schema change creates the
/// table in the database (the mapping's layout names it, so its columns are typed); tables the
/// mapping never names stay in the document as they were. A write transaction holds the
/// document's lock (``JSONStoreFile``), and its commit writes every table back to the document
/// (replaced atomically) when that changes it: a transaction that changes nothing leaves the
/// file alone. A transaction of either kind first loads the tables again when another process
/// replaced the file since.
final class JSONDocumentMirror: SQLiteMirror {
    let file: JSONStoreFile
    /// The document as last read or written.
    private var document: JSONObject
    /// The tables loaded into the database (or created there), by name.
    private var tables: [String: MirroredTable] = [:]
    /// ``tables`` as the last commit left them: what a rollback returns to.
    private var committed: [String: MirroredTable] = [:]
    /// True while a write transaction holds the file's lock.
    private var locked = false
    /// The tables whose bases this transaction loaded, until their capture is in place (``captured(_:on:)``).
    private var loadedNow: Set<String> = []
    /// True when the document was read again and the database does not hold it yet.
    private var stale = false
    /// The scratch database's file in the private folder, removed with the mirror (which its
    /// connection holds, and releases once closed).
    var scratch: String?

    /// The mirror of `file`, read now.
    ///
    /// - Throws: ``PersistError`` when the file cannot be read or is not a JSON object.
    init(file: JSONStoreFile) throws {
        self.file = file
        document = try file.read()
    }

    deinit {
        if let scratch { PrivateFolder.removeItem(scratch) }
    }

    /// Whether the document holds a table of `layout` that the database does not hold yet.
    func holdsUnloaded(_ layout: StoreLayout) -> Bool {
        let bases = document[JSONDocumentTables.baseKey]?.object
        return (layout.tables.map(\.name) + layout.joinTables.map(\.name)).contains { name in
            tables[name] == nil && (document[name] != nil || bases?[name] != nil)
        }
    }

    func willBegin(writing: Bool, on connection: SQLiteConnection) throws {
        do {
            if writing {
                try file.lockForWriting()
                locked = true
            }
            try refresh(on: connection)
        } catch {
            didEnd(committed: false)
            throw error
        }
    }

    func refresh(on connection: SQLiteConnection) throws {
        if let fresh = try file.changed() {
            document = fresh
            stale = true
        }
        guard stale else { return }
        try reload(on: connection)
        stale = false
    }

    func created(_ changes: [SchemaDiff.Change], on connection: SQLiteConnection) throws {
        let loader = documentTables(on: connection)
        for change in changes {
            switch change {
            case .createTable(let table):
                tables[table.name] = .rows(try loader.loadRows(table))
            case .createBase(let table):
                guard case .rows(let held)? = tables[table.name] else { continue }
                try loader.loadBases(held)
                loadedNow.insert(table.name)
            case .createJoin(let join):
                try loader.loadLinks(join)
                tables[join.name] = .links(join)
            case .addColumn(let name, let column):
                tables[name] = tables[name]?.adding(column)
            case .createIndex:
                continue
            }
        }
        if !connection.inTransaction { committed = tables }
    }

    /// Loads again the bases that settling dropped as equal to their rows (``SQLiteBaseCapture``),
    /// for the tables loaded in this transaction that are the source of a join table: the
    /// document does not say whether a row's links were edited, which the `sqlite` store's
    /// capture tells by a base equal to its row, so each such row keeps its base.
    func captured(_ layout: StoreLayout, on connection: SQLiteConnection) throws {
        let loader = documentTables(on: connection)
        for table in layout.tables where loadedNow.contains(table.name) && isLinkSource(table.name) {
            guard case .rows(let held)? = tables[table.name] else { continue }
            try loader.loadBases(held, keeping: true)
            loadedNow.remove(table.name)
        }
    }

    /// Whether a join table of the database has `table` as its source.
    private func isLinkSource(_ table: String) -> Bool {
        tables.values.contains { if case .links(let join) = $0 { join.sourceTable == table } else { false } }
    }

    func willInspect(_ table: String, on connection: SQLiteConnection) throws {
        guard JSONDocumentTables.isOwn(table), tables[table] == nil, document[table] != nil,
            try connection.orderedColumns(of: table).isEmpty
        else { return }
        let columns = try documentTables(on: connection).loadPlain(table)
        if !columns.isEmpty { tables[table] = .plain(columns) }
        if !connection.inTransaction { committed = tables }
    }

    func willCommit(on connection: SQLiteConnection) throws {
        let loader = documentTables(on: connection)
        for name in try loader.ownTables() where tables[name] == nil {
            tables[name] = .plain(try loader.plainColumns(of: name))
        }
        let updated = try loader.exported(tables)
        guard JSONDocumentTables.differs(updated, from: document) else { return }
        try file.write(JSONWriter.serialize(.object(updated)))
        document = updated
    }

    func didEnd(committed: Bool) {
        loadedNow = []
        if committed {
            self.committed = tables
        } else {
            tables = self.committed
        }
        if locked { file.unlock() }
        locked = false
    }

    private func documentTables(on connection: SQLiteConnection) -> JSONDocumentTables {
        JSONDocumentTables(document: document, origin: file.path, connection: connection)
    }

    /// Loads every table of the database again from ``document``, in a transaction of its own
    /// whose writes are rmap's (the base capture's triggers leave them alone), and settles the
    /// bases of those whose capture is in place (``SQLiteBaseCapture/settle(_:columns:)``).
    private func reload(on connection: SQLiteConnection) throws {
        guard !tables.isEmpty else { return }
        let q = SQLiteSchema.quote
        try connection.execute("BEGIN IMMEDIATE")
        do {
            let flagged = !(try connection.orderedColumns(of: SQLiteBaseCapture.ownWrites)).isEmpty
            if flagged { try connection.execute(SQLiteBaseCapture.setOwnWrites) }
            let loader = documentTables(on: connection)
            for (name, table) in tables {
                switch table {
                case .rows(let layout):
                    let captured = !(try connection.orderedColumns(of: layout.insertedName)).isEmpty
                    let based = !(try connection.orderedColumns(of: layout.baseName)).isEmpty
                    try connection.execute("DELETE FROM \(q(name))")
                    if based { try connection.execute("DELETE FROM \(q(layout.baseName))") }
                    if captured { try connection.execute("DELETE FROM \(q(layout.insertedName))") }
                    let held = try loader.loadRows(layout)
                    tables[name] = .rows(held)
                    if based { try loader.loadBases(held) }
                    if captured {
                        let stored = try connection.orderedColumns(of: name)
                        for sql in SQLiteBaseCapture.settle(held, columns: stored) { try connection.execute(sql) }
                        if isLinkSource(name) { try loader.loadBases(held, keeping: true) }
                    }
                case .links(let join):
                    try connection.execute("DELETE FROM \(q(name))")
                    try loader.loadLinks(join)
                case .plain:
                    try connection.execute("DROP TABLE \(q(name))")
                    let columns = try loader.loadPlain(name)
                    tables[name] = columns.isEmpty ? nil : .plain(columns)
                }
            }
            if flagged { try connection.execute(SQLiteBaseCapture.clearOwnWrites) }
            try connection.execute("COMMIT")
            committed = tables
        } catch {
            try? connection.execute("ROLLBACK")
            tables = committed
            throw error
        }
    }
}

import RMap

/// The ``StoreBackend`` of the `sqlite` store: the primitives as cached prepared
/// statements on one connection (see ``SQLiteSchema`` for the tables).
///
/// A write is one `BEGIN IMMEDIATE ... COMMIT` transaction: schema changes
/// included, a rollback (or a killed process) leaves the file as before.
final class SQLiteBackend: SyncBackend {
    let connection: SQLiteConnection
    /// In a write transaction: whether its writes are local edits (``setLocalEdits(_:)``), and
    /// whether the row of ``SQLiteBaseCapture/ownWrites`` that says they are not is in place.
    private var localEdits = false
    private var ownWritesFlagged = false
    private var writing = false
    /// The insert triggers and join-table indexes dropped for rmap's own bulk inserts in this
    /// transaction, and the indexes its schema changes create, made at commit.
    private var suspended = SQLiteSuspendedSchema()

    init(connection: SQLiteConnection) throws {
        self.connection = connection
        // A rollback journal (no WAL), synced at commit only. An 8 MiB cache: writes come in identity order
        // (PersistWriter sorts each table's rows, IdentityOrder), so the pages in use are few, and a larger cache
        // only grew the RSS (16 MiB was no faster at 1.4M rows, 4 MiB doubled the system time, 128 MiB was slower,
        // by page faults; 32 MiB and a 256 MiB mmap_size were not measurably faster on shuffled ids).
        // 8 KiB pages for a new file (an existing one keeps its own). Sorts beyond the cache spill to temporary
        // files, not memory: a join table's index built at commit (SQLiteSuspendedSchema) from 900,000 links took
        // 0.7-1.5 s and 8 MiB more RSS with them, 1.5-1.7 s and 41 MiB in memory.
        try connection.execute(
            "PRAGMA page_size = 8192; PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL; "
                + "PRAGMA cache_size = -8192; PRAGMA temp_store = FILE")
    }

    /// Writes are rmap's own until ``setLocalEdits(_:)`` says otherwise; the flag row goes in
    /// before the first of them (a transaction that writes nothing leaves the file as it was).
    func begin() throws {
        try begin(writing: true)
        writing = true
        localEdits = false
        ownWritesFlagged = false
    }

    /// A deferred transaction: a shared lock at the first read, which a writer's reserved lock does not block.
    func beginRead() throws { try begin(writing: false) }

    /// `BEGIN`, the connection's mirror told first (and told of the end when it fails).
    private func begin(writing: Bool) throws {
        try connection.mirror?.willBegin(writing: writing, on: connection)
        do {
            try connection.execute(writing ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
        } catch {
            connection.mirror?.didEnd(committed: false)
            throw error
        }
    }

    /// Makes the suspended triggers and indexes again and deletes the flag row first: no other
    /// connection ever sees either missing or set. The mirror is written inside the ``CommitGate``.
    func commit() throws {
        try suspended.restore(on: connection)
        if ownWritesFlagged { try connection.execute(SQLiteBaseCapture.clearOwnWrites) }
        try CommitGate.commit {
            if writing { try connection.mirror?.willCommit(on: connection) }
            try connection.execute("COMMIT")
        }
        endTransaction()
        connection.mirror?.didEnd(committed: true)
    }

    func rollback() {
        if connection.inTransaction { try? connection.execute("ROLLBACK") }
        endTransaction()
        connection.mirror?.didEnd(committed: false)
    }

    private func endTransaction() {
        writing = false
        suspended.reset()
        localEdits = false
        ownWritesFlagged = false
    }

    func setLocalEdits(_ local: Bool) throws {
        localEdits = local
        guard local, ownWritesFlagged else { return }
        try connection.execute(SQLiteBaseCapture.clearOwnWrites)
        ownWritesFlagged = false
    }

    /// Before a write: puts the flag row in place when the write is rmap's own (``SQLiteBaseCapture``).
    private func flagOwnWrite() throws {
        guard writing, !localEdits, !ownWritesFlagged else { return }
        try connection.execute(SQLiteBaseCapture.setOwnWrites)
        ownWritesFlagged = true
    }

    // MARK: - Schema

    func ensureSchema(_ layout: StoreLayout) throws {
        let diff = try schemaDiff(layout)
        for sql in try diff.statements(SQLiteSchema.self) where !suspended.postpones(sql, on: connection) {
            try connection.execute(sql)
        }
        try connection.mirror?.created(diff.changes, on: connection)
        for sql in try connection.captureStatements(layout) { try connection.execute(sql) }
        try connection.mirror?.captured(layout, on: connection)
    }

    /// The catalog tells.
    var tellsSchema: Bool { true }

    func holdsSchema(_ layout: StoreLayout) throws -> Bool {
        try schemaDiff(layout).isEmpty && connection.captureStatements(layout).isEmpty
    }

    /// What the file's tables lack for `layout`.
    private func schemaDiff(_ layout: StoreLayout) throws -> SchemaDiff {
        var existing: [String: Set<String>] = [:]
        for name in SchemaDiff.tableNames(layout) { existing[name] = try columns(of: name) }
        return SchemaDiff(layout, existing: existing)
    }

    private func columns(of table: String) throws -> Set<String> { Set(try connection.orderedColumns(of: table)) }

    func isEmpty(_ table: TableLayout) throws -> Bool {
        try connection.query(SQLiteSchema.isEmptyQuery(table)).first?.first == .integer(1)
    }

    // MARK: - Rows

    func fetch(_ table: TableLayout, identities: [[Value]]) throws -> [IdentityKey: StoredState] {
        let rowQuery = try connection.statement(SQLiteBaseCapture.selectWithBase(table))
        let baseQuery = try connection.statement(
            SQLiteSchema.select(from: table.baseName, table, rowid: false, byIdentity: true))
        let width = Int32(table.columns.count)
        let baseIdentity = width + Int32(table.identity[0])
        var states = [IdentityKey: StoredState](minimumCapacity: identities.count)
        for identity in identities {
            rowQuery.bind(identity)
            defer { rowQuery.reset() }
            if try rowQuery.step() {
                // No base row: the row is the server's state, unless it was created locally.
                let row = read(rowQuery, table, from: 0)
                let base =
                    !rowQuery.isNull(baseIdentity)
                    ? read(rowQuery, table, from: width) : rowQuery.int(2 * width) == 0 ? row : nil
                states[IdentityKey(identity)] = StoredState(row: row, base: base)
            } else if let base = try first(baseQuery, identity, table) {
                states[IdentityKey(identity)] = StoredState(row: nil, base: base)
            }
        }
        return states
    }

    /// One indexed lookup a row and its base, comparing the bound values there: nothing is decoded.
    func matchesBase(_ table: TableLayout, _ rows: [[Value?]]) throws -> [Bool] {
        // Rows of one table usually have the same keys: one statement per set of keys present,
        // the last one tried first without building the row's set.
        var statements: [[Bool]: Comparison] = [:]
        var last: Comparison?
        return try rows.map { row in
            let comparison: Comparison
            if let last, last.fits(row) {
                comparison = last
            } else {
                let present = row.map { $0 != nil }
                if let known = statements[present] {
                    comparison = known
                } else {
                    comparison = Comparison(
                        present: present, columns: table.comparedColumns(present: present),
                        statement: try connection.statement(SQLiteBaseCapture.matchBase(table, present: present)))
                    statements[present] = comparison
                }
                last = comparison
            }
            return try comparison.matches(row)
        }
    }

    /// The statement that compares rows with these keys present with their base.
    private struct Comparison {
        let present: [Bool]
        let columns: [Int]
        let statement: SQLiteStatement

        func fits(_ row: [Value?]) -> Bool {
            for column in row.indices where (row[column] != nil) != present[column] { return false }
            return true
        }

        func matches(_ row: [Value?]) throws(SQLiteError) -> Bool {
            statement.reset()
            for (position, column) in columns.enumerated() {
                statement.bind(row[column] ?? .null, at: Int32(position + 1))
            }
            defer { statement.reset() }
            return try statement.step()
        }
    }

    private func first(_ statement: SQLiteStatement, _ identity: [Value], _ table: TableLayout) throws -> [Value]? {
        statement.bind(identity)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return read(statement, table, from: 0)
    }

    private func read(_ statement: SQLiteStatement, _ table: TableLayout, from offset: Int32) -> [Value] {
        var values: [Value] = []
        values.reserveCapacity(table.columns.count)
        for (index, column) in table.columns.enumerated() {
            values.append(statement.value(offset + Int32(index), as: column.type))
        }
        return values
    }

    func upsertRows(_ table: TableLayout, _ rows: [[Value]]) throws {
        try insert(rows, width: table.columns.count) { SQLiteSchema.upsert(into: table.name, table, rows: $0) }
    }

    func upsertBase(_ table: TableLayout, _ rows: [[Value]]) throws {
        try insert(rows, width: table.columns.count) {
            SQLiteSchema.upsert(into: table.baseName, table, rows: $0)
        }
    }

    /// Inserts the rows alone: a row without a base is the server's state (``SQLiteBaseCapture``).
    /// The table's insert triggers are dropped until the commit (made again from their text in the
    /// file): even with a `WHEN` that is false, a trigger doubles the cost of an insert, and no
    /// other connection writes meanwhile.
    func insertFresh(_ table: TableLayout, _ rows: [[Value]]) throws {
        if writing, !localEdits, !table.identity.isEmpty {
            let names = SQLiteBaseCapture.insertTriggerNames(table)
            try suspended.dropTriggers([names.before, names.after], on: connection)
        }
        try upsertRows(table, rows)
    }

    /// Drops the rows' bases and their notes of a local creation: a row without them is the server's state.
    func settleBase(_ table: TableLayout, _ rows: [[Value]]) throws {
        let identities = rows.map { table.identityValues(of: $0) }
        try deleteBase(table, identities: identities)
        try run(SQLiteSchema.delete(from: SQLiteBaseCapture.insertedName(table), where: table.identityNames), identities)
    }

    /// Runs an `INSERT` of `rows`, `sql(n)` being its text for `n` rows: whole groups of
    /// ``SQLiteConnection/rowsPerInsert(width:)`` rows a statement, then the rest one by one.
    /// A statement run costs its set-up (cursors, locks, checks) whatever its size: a group
    /// of 32 rows halved the time of inserting a million rows one statement each.
    private func insert(_ rows: [[Value]], width: Int, _ sql: (_ rows: Int) -> String) throws {
        guard !rows.isEmpty else { return }
        try flagOwnWrite()
        let group = connection.rowsPerInsert(width: width)
        var start = rows.startIndex
        if group > 1, rows.count >= group {
            let statement = try connection.statement(sql(group))
            while rows.endIndex - start >= group {
                statement.bind(rows: rows[start..<start + group])
                try statement.run()
                start += group
            }
        }
        try run(sql(1), rows[start...])
    }

    private func run(_ sql: String, _ rows: some Collection<[Value]>) throws {
        guard !rows.isEmpty else { return }
        try flagOwnWrite()
        let statement = try connection.statement(sql)
        for row in rows {
            statement.bind(row)
            try statement.run()
        }
    }

    func identities(_ table: TableLayout) throws -> [(identity: [Value], type: String?)] {
        let columns = table.identityNames + (table.discriminator.map { [table.columns[$0].name] } ?? [])
        let list = SQLiteSchema.list(columns)
        let statement = try connection.statement(
            "SELECT \(list) FROM \(SQLiteSchema.quote(table.name)) UNION "
                + "SELECT \(list) FROM \(SQLiteSchema.quote(table.baseName))")
        statement.bind([Value]())
        var result: [(identity: [Value], type: String?)] = []
        while try statement.step() {
            let identity = table.identity.enumerated().map { statement.value(Int32($0), as: table.columns[$1].type) }
            let type =
                table.discriminator == nil || statement.isNull(Int32(identity.count))
                ? nil : statement.text(Int32(identity.count))
            result.append((identity, type))
        }
        return result
    }

    func delete(_ table: TableLayout, identities: [[Value]]) throws {
        let names = table.identityNames
        try run(SQLiteSchema.delete(from: table.name, where: names), identities)
        try run(SQLiteSchema.delete(from: table.baseName, where: names), identities)
        try run(SQLiteSchema.delete(from: SQLiteBaseCapture.insertedName(table), where: names), identities)
    }

    /// rmap's own links go in without the join table's insert trigger, and, into a join table
    /// that held none at the transaction's first links, without its indexes (``SQLiteSuspendedSchema``).
    func replaceLinks(_ join: JoinTableLayout, sources: [[Value]], links: [[Value]]) throws {
        let name = SQLiteSchema.quote(join.name)
        if !sources.isEmpty, try connection.query("SELECT EXISTS (SELECT 1 FROM \(name))").first?.first == .integer(1) {
            try run(
                SQLiteSchema.delete(from: join.name, where: join.columns.prefix(join.sourceColumnCount).map(\.name)),
                sources)
        }
        guard !links.isEmpty else { return }
        if writing, !localEdits {
            try suspended.dropTriggers([SQLiteBaseCapture.linkTriggerNames(join).inserted], on: connection)
            try suspended.dropIndexesIfEmpty(join.name, on: connection)
        }
        try insert(links, width: join.columns.count) { SQLiteSchema.insertLinks(join, rows: $0) }
    }

    /// One indexed lookup a source (none when the join table is empty): its links, compared as sets.
    func holdsLinks(_ join: JoinTableLayout, sources: [[Value]], links: [[[Value]]]) throws -> [Bool] {
        let name = SQLiteSchema.quote(join.name)
        guard try connection.query("SELECT EXISTS (SELECT 1 FROM \(name))").first?.first == .integer(1) else {
            return Array(repeating: false, count: sources.count)
        }
        let statement = try linksOfSource(join)
        return try zip(sources, links).map { source, wanted in
            statement.bind(source)
            defer { statement.reset() }
            var stored = Set<[Value]>()
            while try statement.step() {
                stored.insert(join.columns.enumerated().map { statement.value(Int32($0), as: $1.type) })
            }
            let expected = Set(wanted)
            return join.union ? expected.isSubset(of: stored) : expected == stored
        }
    }

    /// The links of the source whose identity is bound.
    private func linksOfSource(_ join: JoinTableLayout) throws -> SQLiteStatement {
        try connection.statement(
            "SELECT \(SQLiteSchema.list(join.columns.map(\.name))) FROM \(SQLiteSchema.quote(join.name)) WHERE "
                + SQLiteSchema.matching(join.columns.prefix(join.sourceColumnCount).map(\.name)))
    }

    // MARK: - Reading

    func scanRows(_ table: TableLayout) throws -> [StoredRow] {
        let statement = try connection.statement(
            SQLiteSchema.select(from: table.name, table, rowid: true, byIdentity: false))
        statement.bind([Value]())
        var rows: [StoredRow] = []
        while try statement.step() {
            rows.append(StoredRow(reference: statement.int(0), values: read(statement, table, from: 1)))
        }
        return rows
    }

    func scanLinks(_ join: JoinTableLayout) throws -> [[Value]] {
        let statement = try connection.statement(
            "SELECT \(SQLiteSchema.list(join.columns.map(\.name))) FROM \(SQLiteSchema.quote(join.name))")
        statement.bind([Value]())
        var links: [[Value]] = []
        while try statement.step() {
            links.append(join.columns.enumerated().map { statement.value(Int32($0), as: $1.type) })
        }
        return links
    }

    /// One lookup by the join table's key a source.
    func links(_ join: JoinTableLayout, sources: [[Value]]) throws -> [[Value]] {
        let statement = try linksOfSource(join)
        var links: [[Value]] = []
        for source in sources {
            statement.bind(source)
            defer { statement.reset() }
            while try statement.step() {
                links.append(join.columns.enumerated().map { statement.value(Int32($0), as: $1.type) })
            }
        }
        return links
    }

    /// One query by the destination columns.
    func links(_ join: JoinTableLayout, destination: [Value]) throws -> [[Value]] {
        let statement = try connection.statement(
            "SELECT \(SQLiteSchema.list(join.columns.map(\.name))) FROM \(SQLiteSchema.quote(join.name)) WHERE "
                + SQLiteSchema.matching(join.destinationColumns.map(\.name)))
        statement.bind(destination)
        var links: [[Value]] = []
        while try statement.step() {
            links.append(join.columns.enumerated().map { statement.value(Int32($0), as: $1.type) })
        }
        return links
    }

    /// The base rows and the rows that are their own base (``SQLiteBaseCapture``).
    func scanBase(_ table: TableLayout) throws -> [[Value]] {
        try readAll(SQLiteBaseCapture.scanBase(table), table)
    }

    /// Read from the base rows and the identities created locally: O(rows changed).
    func localChanges(_ table: TableLayout) throws -> TableChanges {
        let statement = try connection.statement(SQLiteBaseCapture.changedRows(table))
        statement.bind([Value]())
        let width = Int32(table.columns.count)
        var rows: [(row: StoredRow, base: [Value]?)] = []
        while try statement.step() {
            let row = StoredRow(reference: statement.int(0), values: read(statement, table, from: 1))
            rows.append((row, statement.int(width + 1) == 1 ? read(statement, table, from: width + 2) : nil))
        }
        return TableChanges(rows: rows, deleted: try readAll(SQLiteBaseCapture.deletedBases(table), table))
    }

    private func readAll(_ sql: String, _ table: TableLayout) throws -> [[Value]] {
        let statement = try connection.statement(sql)
        statement.bind([Value]())
        var rows: [[Value]] = []
        while try statement.step() { rows.append(read(statement, table, from: 0)) }
        return rows
    }

    func updateRow(_ table: TableLayout, reference: RowReference, values: [Value]) throws {
        try flagOwnWrite()
        let assignments = table.columns.map { "\(SQLiteSchema.quote($0.name)) = ?" }.joined(separator: ", ")
        let statement = try connection.statement(
            "UPDATE \(SQLiteSchema.quote(table.name)) SET \(assignments) WHERE rowid = ?")
        statement.bind(values)
        statement.bind(int: reference, at: Int32(values.count + 1))
        try statement.run()
    }

    func deleteBase(_ table: TableLayout, identities: [[Value]]) throws {
        try run(
            SQLiteSchema.delete(from: table.baseName, where: table.identityNames),
            identities)
    }
}

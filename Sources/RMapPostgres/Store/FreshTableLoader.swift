import RMap

/// The first import's path into PostgreSQL: rows the store holds nothing for (every row of a
/// first import, the new objects of a re-import), and links of a join table that held nothing
/// when this transaction first added to it, go straight into their tables with `COPY`, without a staging table and
/// `INSERT ... ON CONFLICT` (half of a first import's time was that merge).
///
/// Only where nothing can conflict: ``PersistWriter`` hands over only identities the table and
/// its base lack, each once,
/// and a join table each source's links once (the links of one batch are de-duplicated here:
/// a payload may list a member twice). Identities whose equality PostgreSQL decides otherwise
/// than Swift (`uuid` ignores case, `numeric` its scale, `double precision` counts NaN equal
/// to itself, `jsonb` normalizes) and tables whose columns have other SQL types than the
/// layout's (a mapping type changed since they were created) answer `false`: the caller
/// stages and merges them, as before.
final class FreshTableLoader {
    private let connection: PostgresConnection
    /// Rows and links copied straight into their tables.
    private(set) var copiedRows = 0
    /// By table name, in this transaction: whether its columns have the layout's SQL types.
    private var typed: [String: Bool] = [:]
    /// By join table name, in this transaction: true while it holds only links copied here.
    private var freshJoins: [String: Bool] = [:]

    init(connection: PostgresConnection) {
        self.connection = connection
    }

    /// Forgets what it learnt of the tables: a new transaction may find them changed.
    func reset() {
        typed.removeAll()
        freshJoins.removeAll()
    }

    /// Copies rows the table and its base lack into it (a fresh row has no base row, ``PostgresBaseCapture``).
    ///
    /// - Returns: false, having written nothing, when the table must be staged and merged.
    func insert(_ table: TableLayout, _ rows: [[Value]]) throws(PostgresError) -> Bool {
        guard Self.comparesAlike(table.identity.map { table.columns[$0] }), try hasLayoutTypes(table.name, table.columns)
        else { return false }
        copiedRows += try PostgresCopyIn(connection: connection).load(
            Self.copy(into: table.name, table.columns), encoded: Self.encode(rows))
        return true
    }

    /// Copies links, each once, into a join table that held nothing when this transaction first
    /// added links to it and has since received only links of other sources from here.
    ///
    /// - Returns: false, having written nothing, when the links must be staged and merged.
    func insertLinks(_ join: JoinTableLayout, _ links: [[Value]]) throws(PostgresError) -> Bool {
        guard !join.union, Self.comparesAlike(join.columns), try isFresh(join) else { return false }
        var seen = Set<[Value]>(minimumCapacity: links.count)
        let distinct = links.filter { seen.insert($0).inserted }
        copiedRows += try PostgresCopyIn(connection: connection).load(
            Self.copy(into: join.name, join.columns), encoded: Self.encode(distinct))
        return true
    }

    /// Links went into `join` another way: later links may meet them, so they are merged from now on.
    func merged(into join: JoinTableLayout) {
        freshJoins[join.name] = false
    }

    private func isFresh(_ join: JoinTableLayout) throws(PostgresError) -> Bool {
        if let fresh = freshJoins[join.name] { return fresh }
        let query = "SELECT NOT EXISTS (SELECT 1 FROM \(PostgresSchema.quote(join.name)))"
        let empty = try connection.query(query).rows.first?.first == "t"
        let fresh = empty ? try hasLayoutTypes(join.name, join.columns) : false
        freshJoins[join.name] = fresh
        return fresh
    }

    /// True when every one of `columns` exists in the table `name` with its layout type's SQL type.
    private func hasLayoutTypes(_ name: String, _ columns: [ColumnLayout]) throws(PostgresError) -> Bool {
        if let known = typed[name] { return known }
        let result = try connection.query(
            "SELECT count(*) FROM pg_attribute AS a JOIN unnest($2::text[], $3::text[]) AS c(name, type) "
                + "ON a.attname = c.name AND a.atttypid = c.type::regtype "
                + "WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped",
            [
                PostgresSchema.quote(name), PostgresValueText.arrayLiteral(columns.map { .string($0.name) }),
                PostgresValueText.arrayLiteral(columns.map { .string(PostgresSchema.columnType($0.type)) }),
            ])
        let matching = result.rows.first?.first.flatMap { $0.flatMap(Int.init) } == columns.count
        typed[name] = matching
        return matching
    }

    /// True when two values of these columns are equal in PostgreSQL exactly when they are in Swift.
    static func comparesAlike(_ columns: [ColumnLayout]) -> Bool {
        columns.allSatisfy { column in
            switch column.type {
            case .string, .url, .int, .bool, .date, .datetime: true
            case .uuid, .decimal, .double, .array, .json: false
            }
        }
    }

    private static func copy(into name: String, _ columns: [ColumnLayout]) -> String {
        "COPY \(PostgresSchema.quote(name)) (\(PostgresSchema.list(columns.map(\.name)))) FROM STDIN"
    }

    private static func encode(_ rows: [[Value]]) -> [UInt8] {
        var encoder = CopyTextEncoder(capacity: rows.count * 64)
        for row in rows { encoder.append(values: row) }
        return encoder.bytes
    }
}

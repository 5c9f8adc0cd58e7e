import Foundation

/// How one SQL engine spells the tables of MAPPING.md §5: its column types,
/// its quoting, and the few places where its DDL differs. ``SchemaDiff`` turns
/// its changes into statements with it, so that the engines share one schema
/// logic (what exists, what to add) and differ only in text.
///
/// ```swift
/// enum MyDialect: SQLDialect {
///     static let engineName = "MyDB"
///     static func columnType(_ type: AttributeType) -> String { type == .int ? "INTEGER" : "TEXT" }
///     static func quote(_ name: String) -> String { "\"\(name)\"" }
/// }
/// ```
public protocol SQLDialect: Sendable {
    /// The engine's name in messages, e.g. `PostgreSQL`.
    static var engineName: String { get }
    /// The engine's column type for values of a logical type (MAPPING.md §5).
    static func columnType(_ type: AttributeType) -> String
    /// A name quoted as an identifier.
    static func quote(_ name: String) -> String
    /// Column definitions an entity table has before the layout's columns (a row handle the
    /// engine does not keep by itself). None by default.
    static var rowHandleDefinitions: [String] { get }
    /// What follows the column list of a table keyed by its primary key (base and join
    /// tables), e.g. SQLite's ` WITHOUT ROWID`. Nothing by default.
    static var keyedTableOptions: String { get }
    /// The longest table name the engine keeps, in UTF-8 bytes; `nil` (the default) for no limit.
    static var maximumNameLength: Int? { get }
    /// The column holding an entity table's row handle (``RowReference``), in insertion order:
    /// SQLite's `rowid`, the `_rmap_rowid` of ``rowHandleDefinitions`` elsewhere.
    static var rowHandle: String { get }
    /// An expression true when the values of `left` and `right` (SQL expressions holding values of
    /// `type`) are the same value: both null, or equal as rmap compares values (decimals by value).
    /// The default is `IS NOT DISTINCT FROM`, exact for every type an engine stores typed.
    static func same(_ left: String, _ right: String, type: AttributeType) -> String
    /// An expression whose `<` orders values of `type` as rmap does: the expression itself by
    /// default; SQLite's decimals, kept as text, compare as numbers.
    static func orderable(_ expression: String, type: AttributeType) -> String
    /// Whether `INSERT ... SELECT ... ORDER BY ... ON CONFLICT DO UPDATE` applies the selected rows
    /// one by one, in order, so that several rows of one key merge in that order (SQLite). An
    /// engine that refuses to update a row twice in one statement (PostgreSQL) says false, the default.
    static var upsertsInOrder: Bool { get }
    /// An expression for the key (``CanonicalKey``) of a stored column of `type` in its own domain
    /// (``KeyDomain/init(_:)``). The default is the column itself: right for `int` and text columns.
    static func keyExpression(_ column: String, type: AttributeType) -> String
    /// The definition of a whole-number column that numbers a staging table's rows, unique and
    /// in the order they arrive (`_seq`). Where the engine keeps a table in the order of such a
    /// key (SQLite's `INTEGER PRIMARY KEY`, the rowid), reading the rows in arrival order and
    /// finding one by its number need no sort and no index. A plain column by default.
    static func sequenceDefinition(_ name: String) -> String
    /// Whether a staging table with a primary key is kept in that key's order, at little more cost
    /// than a table without one when its rows come in that order (SQLite's `WITHOUT ROWID`): then
    /// the members of arrays are keyed by occurrence and place as they are staged. Otherwise (the
    /// default) they go unindexed (PostgreSQL joins them by hash: an index by occurrence, 0.12 s
    /// for 900,000 members, served no statement), and a table of remembered objects made in a run
    /// gets its primary key once filled (``RememberedObjects``).
    static var keysStagingInOrder: Bool { get }
    /// Whether links written in bulk into a join table that holds none yet go in with their
    /// duplicates dropped by the table's key (`... WHERE ... ON CONFLICT DO NOTHING`), in the
    /// order they are found (SQLite: 0.46 s of processor time for 900,000 links, against 0.56 s
    /// sorted and distinct). Otherwise (the default) the statement drops them and sorts the rest
    /// in the key's order (`SELECT DISTINCT ... ORDER BY`), so that the key's B-tree fills from one
    /// end (PostgreSQL: 1.5 s, against 2.4 s hashed and inserted at random).
    static var linksIgnoreDuplicates: Bool { get }
    /// Whether the engine joins by hashing when no index serves a lookup (PostgreSQL). Otherwise
    /// (the default; SQLite has no hash join) a correlated lookup without an index reads the whole
    /// table for each row, so the run indexes what its statements look up that way
    /// (``RowCollapse/indexIdentity(on:)``, a join table's stale links in ``LinkMerge``).
    static var hashesJoins: Bool { get }
    /// The statement that gathers the planner's statistics of a run's temporary table once it is
    /// filled, or `nil` (the default) where the engine plans well without them. PostgreSQL never
    /// analyzes temporary tables by itself: without statistics it guessed 5,000 rows for a table
    /// of a million, and hashed and sorted past its memory (docs/performance-log.md).
    static func statistics(of table: String) -> String?
}

extension SQLDialect {
    /// No row handle column.
    public static var rowHandleDefinitions: [String] { [] }
    /// No table options.
    public static var keyedTableOptions: String { "" }
    /// No limit.
    public static var maximumNameLength: Int? { nil }

    /// The expression itself.
    public static func orderable(_ expression: String, type: AttributeType) -> String { expression }

    /// Refuses to update a row twice in a statement.
    public static var upsertsInOrder: Bool { false }

    /// Stages members without a key.
    public static var keysStagingInOrder: Bool { false }

    public static var linksIgnoreDuplicates: Bool { false }

    public static var hashesJoins: Bool { false }

    /// None.
    public static func statistics(of table: String) -> String? { nil }

    /// `IS NOT DISTINCT FROM`.
    public static func same(_ left: String, _ right: String, type: AttributeType) -> String {
        "\(left) IS NOT DISTINCT FROM \(right)"
    }

    /// The column itself.
    public static func keyExpression(_ column: String, type: AttributeType) -> String { column }

    /// A plain whole-number column.
    public static func sequenceDefinition(_ name: String) -> String { "\(quote(name)) \(columnType(.int))" }

    /// A string literal: `'text'`, a quote in it doubled.
    public static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// Quoted names separated by commas.
    public static func list(_ names: some Sequence<String>) -> String {
        names.map(quote).joined(separator: ", ")
    }

    /// A column's definition: its quoted name and type.
    public static func definition(_ column: ColumnLayout) -> String {
        "\(quote(column.name)) \(columnType(column.type))"
    }

    /// The statements of one schema change.
    static func statements(_ change: SchemaDiff.Change) -> [String] {
        switch change {
        case .createTable(let table):
            var parts = rowHandleDefinitions + table.columns.map(definition)
            if !table.identity.isEmpty { parts.append("UNIQUE (\(list(table.identityNames)))") }
            return ["CREATE TABLE \(quote(table.name)) (\(parts.joined(separator: ", ")))"]
        case .createBase(let table):
            let parts =
                table.columns.map(definition) + ["PRIMARY KEY (\(list(table.identityNames)))"]
            return ["CREATE TABLE \(quote(table.baseName)) (\(parts.joined(separator: ", ")))\(keyedTableOptions)"]
        case .addColumn(let table, let column):
            return ["ALTER TABLE \(quote(table)) ADD COLUMN \(definition(column))"]
        case .createIndex(let table, let column):
            return [index(on: table, [column])]
        case .createJoin(let join):
            let parts =
                join.columns.map { definition($0) + " NOT NULL" } + ["PRIMARY KEY (\(list(join.columns.map(\.name))))"]
            return [
                "CREATE TABLE \(quote(join.name)) (\(parts.joined(separator: ", ")))\(keyedTableOptions)",
                index(on: join.name, join.destinationColumns.map(\.name)),
            ]
        }
    }

    // MARK: - Statements every engine writes alike

    /// `ON CONFLICT (identity) DO UPDATE SET` every other column to the incoming value
    /// (`DO NOTHING` when the identity is every column): the end of an upsert into `table`
    /// or its base.
    public static func onConflictUpdate(_ table: TableLayout) -> String {
        let identity = table.identityNames
        let updates = table.columns.map(\.name).filter { !identity.contains($0) }
            .map { "\(quote($0)) = excluded.\(quote($0))" }
        let action = updates.isEmpty ? "NOTHING" : "UPDATE SET \(updates.joined(separator: ", "))"
        return "ON CONFLICT (\(list(identity))) DO \(action)"
    }

    /// `CREATE INDEX IF NOT EXISTS index_<table>_on_<a>_and_<b>`.
    private static func index(on table: String, _ columns: [String]) -> String {
        "CREATE INDEX IF NOT EXISTS \(quote("index_\(table)_on_\(columns.joined(separator: "_and_"))")) "
            + "ON \(quote(table)) (\(list(columns)))"
    }

    /// Throws when a table the change creates has a name longer than ``maximumNameLength``.
    static func checkName(of change: SchemaDiff.Change) throws {
        guard let limit = maximumNameLength else { return }
        let names: [String] =
            switch change {
            case .createTable(let table): [table.name]
            case .createBase(let table): [table.baseName]
            case .createJoin(let join): [join.name]
            case .addColumn, .createIndex: []
            }
        if let long = names.first(where: { $0.utf8.count > limit }) {
            throw PersistError.tableNameTooLong(long, engine: engineName, limit: limit)
        }
    }
}

/// What a store's tables lack for a layout (MAPPING.md §5), found in core once
/// for every SQL engine: the engine only says which tables and columns exist
/// and spells the changes in its dialect (``SQLDialect``).
///
/// Nothing is ever dropped or retyped: a missing entity table is created with
/// its base, a missing base is created, missing columns are added to a table
/// and its base, a foreign-key column gets an index when it is created, and a
/// missing join table is created (an existing one gains the columns it lacks,
/// e.g. `position` once its relationship is `ordered`). A table's holder columns
/// (``TableLayout/holders``) are added to it and to its base like missing columns.
///
/// ```swift
/// let existing = ["people": ["id", "name"], "_rmap_base_people": ["id", "name"]]
/// let diff = SchemaDiff(layout, existing: existing)
/// diff.changes   // [.addColumn(table: "people", email), .addColumn(table: "_rmap_base_people", email)]
/// ```
public struct SchemaDiff: Sendable, Equatable {
    /// One change to the store's tables.
    public enum Change: Sendable, Equatable {
        /// Creates an entity table (without its base).
        case createTable(TableLayout)
        /// Creates the base table of an entity table.
        case createBase(TableLayout)
        /// Adds a column to the table of this name (an entity, base or join table).
        case addColumn(table: String, ColumnLayout)
        /// Indexes a column of an entity table.
        case createIndex(table: String, column: String)
        /// Creates a join table and its index on the destination columns.
        case createJoin(JoinTableLayout)
    }

    /// The changes, in the order they must run: each entity table's, then the join tables'.
    public let changes: [Change]

    /// True when the tables already hold the layout.
    public var isEmpty: Bool { changes.isEmpty }

    /// The names of every table of `layout` (entity, base and join tables): those whose columns
    /// the engine looks up for ``init(_:existing:)``.
    public static func tableNames(_ layout: StoreLayout) -> [String] {
        layout.tables.flatMap { [$0.name, $0.baseName] } + layout.joinTables.map(\.name)
    }

    /// Compares `layout` with the tables that exist.
    ///
    /// - Parameters:
    ///   - layout: the tables the mapping needs.
    ///   - existing: the column names of each table that exists, by table name (a table absent
    ///     or with no column does not exist).
    public init(_ layout: StoreLayout, existing: [String: Set<String>]) {
        var changes: [Change] = []
        for table in layout.tables {
            let rows = existing[table.name] ?? []
            let base = existing[table.baseName] ?? []
            var added: Set<String> = []
            if rows.isEmpty {
                changes.append(.createTable(table))
                added = Set(table.columns.map(\.name))
            }
            if base.isEmpty { changes.append(.createBase(table)) }
            for column in table.columns {
                if !rows.isEmpty, !rows.contains(column.name) {
                    changes.append(.addColumn(table: table.name, column))
                    added.insert(column.name)
                }
                if !base.isEmpty, !base.contains(column.name) {
                    changes.append(.addColumn(table: table.baseName, column))
                }
            }
            // The holder columns (rmap's own) are added to a new table too; a row stored before
            // its holder column existed holds (null).
            for column in table.holders {
                if !rows.contains(column.name) { changes.append(.addColumn(table: table.name, column)) }
                if !base.contains(column.name) { changes.append(.addColumn(table: table.baseName, column)) }
            }
            for column in table.foreignKeys where added.contains(table.columns[column].name) {
                changes.append(.createIndex(table: table.name, column: table.columns[column].name))
            }
        }
        for join in layout.joinTables {
            guard let columns = existing[join.name], !columns.isEmpty else {
                changes.append(.createJoin(join))
                continue
            }
            for column in join.columns where !columns.contains(column.name) {
                changes.append(.addColumn(table: join.name, column))
            }
        }
        self.changes = changes
    }

    /// The statements of the changes in `dialect`, in order.
    ///
    /// - Throws: ``PersistError`` when a table's name is longer than the engine keeps
    ///   (``SQLDialect/maximumNameLength``).
    public func statements<Dialect: SQLDialect>(_ dialect: Dialect.Type) throws -> [String] {
        try changes.flatMap { change in
            try Dialect.checkName(of: change)
            return Dialect.statements(change)
        }
    }
}

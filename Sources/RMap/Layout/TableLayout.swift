/// One column of a store table: its name and its logical type.
///
/// The type is an ``AttributeType``: each engine maps it to its own SQL type
/// (MAPPING.md §5), e.g. `decimal` is SQLite `TEXT` and PostgreSQL `numeric`.
public struct ColumnLayout: Sendable, Hashable {
    /// The column's name, e.g. `first_name`, `owner_id` or `type`.
    public var name: String
    /// The logical type of the values it holds.
    public var type: AttributeType

    /// Creates a column.
    public init(name: String, type: AttributeType) {
        self.name = name
        self.type = type
    }
}

/// What a column of an entity table holds.
public enum ColumnRole: Sendable, Hashable {
    /// An attribute's value (by attribute name; sub-entities' attributes share columns by name).
    case attribute(String)
    /// The single-table-inheritance `type` of the row's entity.
    case discriminator
    /// One identity value of a to-one relationship's destination (by relationship name).
    case foreignKey(String)
    /// The row's place in the `ordered` to-many inverse of a to-one relationship (by the to-one's name).
    case position(String)
}

/// The table of one root entity and its sub-entities (Rails single-table inheritance).
///
/// Rows created locally may have a null identity; every other row is unique
/// by its identity columns. The store keeps the base (the last server state)
/// of each identified row with the same columns.
public struct TableLayout: Sendable, Hashable {
    /// The table's name: the root entity's `collection`.
    public var name: String
    /// The root entity's name.
    public var rootEntity: String
    /// The columns, in creation order.
    public var columns: [ColumnLayout]
    /// What each column holds, parallel to ``columns``.
    public var roles: [ColumnRole]
    /// The positions of the identity columns in ``columns`` (a unique key).
    public var identity: [Int]
    /// The position of the `type` column, when the root has sub-entities.
    public var discriminator: Int?
    /// rmap's own columns beside ``columns``, which neither reading by attribute, the diff nor a
    /// push sees: one per one-to-one connected by foreign key, saying whether the row holds its
    /// destination (``OneToOneHolder``).
    public var holders: [ColumnLayout] = []

    /// The name of the table that holds the base rows: `_rmap_base_` and the table's name.
    public var baseName: String { "_rmap_base_\(name)" }

    /// The name of the table of the identities created locally (the store's base capture keeps
    /// it): `_rmap_new_` and the table's name.
    public var insertedName: String { "_rmap_new_\(name)" }

    /// Positions of foreign-key columns, which stores index.
    public var foreignKeys: [Int] {
        roles.indices.filter { if case .foreignKey = roles[$0] { true } else { false } }
    }

    /// The position of the column named `name`.
    public func columnIndex(_ name: String) -> Int? {
        columns.firstIndex { $0.name == name }
    }

    /// The name a report gives the column at `position`: its attribute's, or its to-one's for a
    /// foreign key or a position; the `type` column's own name.
    func reportedName(ofColumn position: Int) -> String {
        switch roles[position] {
        case .attribute(let name), .foreignKey(let name), .position(let name): name
        case .discriminator: columns[position].name
        }
    }

    /// The names of the identity columns, in identity order.
    public var identityNames: [String] { identity.map { columns[$0].name } }

    /// The identity values of a row, in identity order.
    public func identityValues(of row: [Value]) -> [Value] {
        identity.map { row[$0] }
    }
}

/// A join table holding a to-many relationship that no to-one column can hold:
/// `<source collection>_<relationship key>(<source element>_<id>, <singular key>_<id>)`,
/// and `position` last for an `ordered: true` relationship.
public struct JoinTableLayout: Sendable, Hashable {
    /// The table's name, e.g. `projects_team_members`.
    public var name: String
    /// The source root entity's table.
    public var sourceTable: String
    /// The relationship's name, e.g. `teamMembers`.
    public var relationship: String
    /// The source identity columns, then the destination identity columns, then `position` when ordered.
    public var columns: [ColumnLayout]
    /// How many leading columns hold the source's identity.
    public var sourceColumnCount: Int
    /// True for `assignment: union`: a run adds links and never removes them.
    public var union: Bool
    /// True for `ordered: true`: the last column, `position`, numbers each source's links from 0 in payload order.
    public var ordered: Bool

    /// The source identity columns.
    public var sourceColumns: ArraySlice<ColumnLayout> { columns.prefix(sourceColumnCount) }

    /// The destination identity columns.
    public var destinationColumns: ArraySlice<ColumnLayout> {
        columns[sourceColumnCount..<(ordered ? columns.count - 1 : columns.count)]
    }
}

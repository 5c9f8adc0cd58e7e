/// The tables of MAPPING.md §5 for a model, independent of any engine.
///
/// One table per root entity (named by its `collection`, with a `type` column
/// when it has sub-entities); attribute columns by their `column` name; a
/// foreign-key column per to-one relationship without a connecting attribute
/// (`owner_id`); a join table per to-many that no to-one column holds
/// (`projects_team_members(project_id, team_member_id)`, with `position` when
/// the relationship is `ordered`); beside the foreign key of a to-one whose
/// inverse is an `ordered` to-many, the row's place in that list (`owner_position`).
///
/// ```swift
/// let layout = StoreLayout(schema: GraphSchema(model: model))
/// layout.table(named: "people")?.columns.map(\.name)  // ["id", "first_name", ...]
/// ```
///
/// When two columns would share a name, the first keeps it: an attribute
/// column wins over a foreign-key column, and sub-entities' attributes with
/// the same column share it (the first declaration's type). When an attribute
/// already uses the column `type`, the discriminator is `entity_type`.
public struct StoreLayout: Sendable {
    /// The entity tables, one per root entity, in model order.
    public let tables: [TableLayout]
    /// The join tables.
    public let joinTables: [JoinTableLayout]
    /// How each entity (by ``EntityType/index``) fills its table.
    let bindings: [EntityBinding]
    /// Table positions by root entity index.
    let tableOfRoot: [Int: Int]

    /// Lays out the tables of a schema's model.
    public init(schema: GraphSchema) {
        var builder = LayoutBuilder(schema: schema)
        builder.build()
        tables = builder.tables
        joinTables = builder.joinTables
        bindings = builder.bindings
        tableOfRoot = builder.tableOfRoot
    }

    /// The entity table named `name`.
    public func table(named name: String) -> TableLayout? {
        tables.first { $0.name == name }
    }

    /// The table that stores `type`'s objects.
    public func table(of type: EntityType) -> TableLayout {
        tables[bindings[type.index].table]
    }

    /// The positions of the columns in `type`'s table that hold one of its to-ones' destination
    /// identity (a nested to-one's `project_id`), whether an attribute shares the column or not.
    package func foreignKeyColumns(of type: EntityType) -> [Int] {
        bindings[type.index].foreignKeys.flatMap(\.columns)
    }

    /// For each of `roots`, whether connecting leaves its rows as they are: no entity stored
    /// in its table has a foreign-key column for a relationship that a connection sets, itself
    /// or as an inverse (the others, nested ones, are set by mapping). Linear in the schema.
    func settledBeforeConnecting(_ roots: [EntityType], in schema: GraphSchema) -> [Bool] {
        let connected = schema.types.flatMap(\.mapping.relationships).filter { $0.connection != nil }
        let written = Set(connected.flatMap { [$0.name] + ($0.inverse.map { [$0] } ?? []) })
        var unsettled: Set<Int> = []
        for type in schema.types {
            let binding = bindings[type.index]
            let names = binding.foreignKeys.map { type.mapping.relationships[$0.relationship].name }
            if !written.isDisjoint(with: names) { unsettled.insert(binding.table) }
        }
        return roots.map { !unsettled.contains(bindings[$0.index].table) }
    }

    /// The join tables whose source is `table`.
    public func joinTables(of table: TableLayout) -> [JoinTableLayout] {
        joinTables.filter { $0.sourceTable == table.name }
    }
}

/// How one entity's objects become rows.
struct EntityBinding: Sendable {
    /// Position of the entity's table in ``StoreLayout/tables``.
    var table: Int
    /// The `type` column's value for this entity, when the table has one.
    var typeValue: String
    /// Column position per attribute position.
    var attributeColumns: [Int]
    /// To-one relationships held by foreign-key columns (destination identity order).
    var foreignKeys: [(relationship: Int, columns: [Int])]
    /// To-many relationships held by join tables; `connectingAttributes` are the
    /// foreign-key source attributes: when a payload carried none of them, the links are kept.
    var joins: [(relationship: Int, join: Int, connectingAttributes: [Int])]
    /// To-one relationships whose inverse is an `ordered` nested to-many, and the column
    /// beside the foreign key that holds the row's place in its parent's list (`owner_position`).
    var positions: [(relationship: Int, column: Int)] = []
}

/// Builds a ``StoreLayout``.
private struct LayoutBuilder {
    let schema: GraphSchema
    var tables: [TableLayout] = []
    var joinTables: [JoinTableLayout] = []
    var bindings: [EntityBinding]
    var tableOfRoot: [Int: Int] = [:]

    init(schema: GraphSchema) {
        self.schema = schema
        bindings = Array(
            repeating: EntityBinding(table: 0, typeValue: "", attributeColumns: [], foreignKeys: [], joins: []),
            count: schema.types.count)
    }

    mutating func build() {
        for root in schema.roots { addTable(root) }
    }

    private mutating func addTable(_ root: EntityType) {
        let family = [root] + schema.family(of: root).filter { $0 !== root }
        var table = TableLayout(
            name: root.mapping.collection, rootEntity: root.name, columns: [], roles: [], identity: [],
            discriminator: nil)
        func column(_ name: String, _ type: AttributeType, _ role: ColumnRole) -> Int {
            if let existing = table.columnIndex(name) { return existing }
            table.columns.append(ColumnLayout(name: name, type: type))
            table.roles.append(role)
            return table.columns.count - 1
        }
        var attributeColumns: [[Int]] = []
        for type in family {
            attributeColumns.append(type.mapping.attributes.map { column($0.column, $0.type, .attribute($0.name)) })
        }
        table.identity = root.identityIndices.map { attributeColumns[0][$0] }
        if family.count > 1 {
            table.discriminator = column(
                table.columnIndex("type") == nil ? "type" : "entity_type", .string, .discriminator)
        }
        let tableIndex = tables.count
        tableOfRoot[root.index] = tableIndex
        for (position, type) in family.enumerated() {
            var binding = EntityBinding(
                table: tableIndex, typeValue: typeValue(type, root: root), attributeColumns: attributeColumns[position],
                foreignKeys: [], joins: [])
            for (index, relationship) in type.mapping.relationships.enumerated() {
                guard let destination = schema.type(named: relationship.destination) else { continue }
                let identity = identityColumns(of: schema.root(of: destination))
                switch storage(of: relationship, on: type) {
                case .none: break
                case .foreignKey:
                    let stem = Self.stem(relationship)
                    let columns = identity.map { column("\(stem)_\($0.name)", $0.type, .foreignKey(relationship.name)) }
                    binding.foreignKeys.append((index, columns))
                    if isOrderedInverse(relationship, of: destination) {
                        binding.positions.append(
                            (index, column("\(stem)_position", .int, .position(relationship.name))))
                    }
                case .joinTable:
                    let join = joinTable(relationship, root: root, destinationIdentity: identity)
                    binding.joins.append((index, join, connectingAttributes(relationship, type)))
                }
            }
            bindings[type.index] = binding
        }
        table.holders = OneToOneHolder.all(of: family, in: schema).map(\.column)
        tables.append(table)
    }

    private enum Storage { case none, foreignKey, joinTable }

    /// Whether a to-one is the inverse of an `ordered` nested to-many on its destination.
    private func isOrderedInverse(_ relationship: RelationshipMapping, of destination: EntityType) -> Bool {
        guard let name = relationship.inverse, let inverse = destination.mapping.relationship(named: name) else {
            return false
        }
        return inverse.kind == .toMany && inverse.ordered && inverse.nested
    }

    /// Where a relationship's links are kept (MAPPING.md §5).
    private func storage(of relationship: RelationshipMapping, on type: EntityType) -> Storage {
        let inverse = relationship.inverse.flatMap { name in
            schema.type(named: relationship.destination)?.mapping.relationship(named: name)
        }
        let pureInverse = !relationship.nested && relationship.connection == nil
        switch relationship.kind {
        case .toOne:
            if case .foreignKey = relationship.connection?.rule { return .none }
            // The inverse of a to-one that already has its own column.
            if pureInverse, let inverse, inverse.kind == .toOne { return .none }
            return .foreignKey
        case .toMany:
            if let inverse, inverse.kind == .toOne { return .none }
            if pureInverse, inverse != nil { return .none }
            return .joinTable
        }
    }

    /// The join table of a to-many, created on first use (inherited relationships share it).
    private mutating func joinTable(
        _ relationship: RelationshipMapping, root: EntityType, destinationIdentity: [ColumnLayout]
    ) -> Int {
        let stem = Self.stem(relationship)
        let name = "\(root.mapping.collection)_\(stem)"
        if let existing = joinTables.firstIndex(where: { $0.name == name }) { return existing }
        let singular = schema.model.inflector.singularize(stem)
        let source = identityColumns(of: root).map {
            ColumnLayout(name: "\(root.mapping.element)_\($0.name)", type: $0.type)
        }
        let destination = destinationIdentity.map { ColumnLayout(name: "\(singular)_\($0.name)", type: $0.type) }
        let position = relationship.ordered ? [ColumnLayout(name: "position", type: .int)] : []
        joinTables.append(
            JoinTableLayout(
                name: name, sourceTable: root.mapping.collection, relationship: relationship.name,
                columns: source + destination + position, sourceColumnCount: source.count,
                union: relationship.assignment == .union, ordered: relationship.ordered))
        return joinTables.count - 1
    }

    /// The stem of a relationship's column and join-table names: its key path joined by `_`,
    /// dashes as underscores (`team-members` -> `team_members`, as attribute columns are).
    private static func stem(_ relationship: RelationshipMapping) -> String {
        relationship.keyPath.joined(separator: "_").replacingOccurrences(of: "-", with: "_")
    }

    private func identityColumns(of root: EntityType) -> [ColumnLayout] {
        root.identityIndices.map {
            let attribute = root.mapping.attributes[$0]
            return ColumnLayout(name: attribute.column, type: attribute.type)
        }
    }

    private func connectingAttributes(_ relationship: RelationshipMapping, _ type: EntityType) -> [Int] {
        guard case .foreignKey(let pairs) = relationship.connection?.rule else { return [] }
        return pairs.compactMap { type.attributeIndex($0.source) }
    }

    /// The `type` value: the root's `types:` key naming the entity, else the entity's name.
    private func typeValue(_ type: EntityType, root: EntityType) -> String {
        root.mapping.types.filter { $0.value == type.name }.keys.min() ?? type.name
    }
}

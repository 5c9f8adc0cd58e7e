/// A model's entities as a store keeps them (``StoreLayout``): the table and columns of each
/// entity, whose each row is (its `type` column), and a row's values by attribute name. What
/// the store's readers (``StoreReader``, the live session) and the sync API (``SyncStore``) share.
///
/// ```swift
/// let stored = StoredModel(schema: GraphSchema(model: model))
/// let person = try stored.type(named: "CRMPerson")
/// stored.rows(of: stored.schema.family(of: person), alias: "o", dialect: engine.dialect)  // "o"."type" IS NULL OR ...
/// ```
package struct StoredModel: Sendable {
    package let schema: GraphSchema
    package let layout: StoreLayout

    package init(schema: GraphSchema) {
        self.schema = schema
        layout = StoreLayout(schema: schema)
    }

    /// The entity named `name`.
    ///
    /// - Throws: ``ReadError/unknownEntity(_:)``.
    package func type(named name: String) throws(ReadError) -> EntityType {
        guard let type = schema.type(named: name) else { throw .unknownEntity(name) }
        return type
    }

    /// How `type`'s objects fill their table.
    func binding(of type: EntityType) -> EntityBinding { layout.bindings[type.index] }

    /// The table of `type`'s objects.
    package func table(of type: EntityType) -> TableLayout { layout.table(of: type) }

    /// The entities whose objects a table holds: its root first, then its sub-entities in model order.
    func members(ofTable position: Int) -> [EntityType] {
        schema.types.filter { layout.bindings[$0.index].table == position }
    }

    /// The entity of a row of the table at `position`: by its `type` column, the root when the
    /// table has none or the row's is null; `nil` for a `type` no entity of the table has.
    func entity(ofRow row: [Value], table position: Int) -> EntityType? {
        let members = members(ofTable: position)
        guard let discriminator = layout.tables[position].discriminator,
            case .string(let value) = row[discriminator]
        else { return members.first { $0.index == $0.rootIndex } }
        return members.first { binding(of: $0).typeValue == value }
    }

    /// A row's values by attribute name, as `type` names them.
    package func values(of row: [Value], as type: EntityType) -> [String: Value] {
        var values: [String: Value] = [:]
        for (attribute, column) in zip(type.mapping.attributes, binding(of: type).attributeColumns) {
            values[attribute.name] = row[column]
        }
        return values
    }

    /// An SQL condition true for the rows of `alias` (a row of the entities' table) that are
    /// objects of one of `types` (entities of one table), as ``entity(ofRow:table:)`` tells;
    /// `nil` when every row is (a table without a `type` column, asked for its root).
    func rows(of types: [EntityType], alias: String, dialect: any SQLDialect.Type) -> String? {
        guard let first = types.first else { return "1 = 0" }
        let position = binding(of: first).table
        let members = members(ofTable: position)
        let wanted = Set(types.map(\.index))
        guard let discriminator = layout.tables[position].discriminator else {
            return wanted.contains(first.rootIndex) ? nil : "1 = 0"
        }
        // A `type` value belongs to the first member that has it.
        var owners: [String: Int] = [:]
        for member in members where owners[binding(of: member).typeValue] == nil {
            owners[binding(of: member).typeValue] = member.index
        }
        let values = owners.filter { wanted.contains($0.value) }.keys.sorted()
        let column = "\(alias).\(dialect.quote(layout.tables[position].columns[discriminator].name))"
        var conditions = values.isEmpty ? [] : ["\(column) IN (\(values.map(dialect.literal).joined(separator: ", ")))"]
        if wanted.contains(first.rootIndex) { conditions.append("\(column) IS NULL") }
        return conditions.isEmpty ? "1 = 0" : "(\(conditions.joined(separator: " OR ")))"
    }
}

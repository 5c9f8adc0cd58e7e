/// What sync needs to know about a model's tables: which columns of an
/// entity travel in request bodies (and under which payload key), and which
/// columns hold another table's identity.
struct SyncSchema {
    /// One column as a request body carries it.
    struct PayloadColumn {
        /// The column's position in its table.
        var column: Int
        /// The payload key path, e.g. `["address", "city"]`, or `["owner_id"]` for a foreign-key column.
        var keyPath: [String]
        /// The attribute, for an attribute column.
        var attribute: AttributeMapping?

        /// Never sent: a `readonly` attribute.
        var isReadonly: Bool { attribute?.readonly ?? false }
    }

    /// How one entity's objects travel.
    struct EntitySync {
        var type: EntityType
        var table: TableLayout
        var tableIndex: Int
        /// The entity's attribute columns, then its foreign-key columns.
        var columns: [PayloadColumn]
        /// The `type` value of a single-table-inheritance row.
        var typeValue: String
        /// Array attributes that feed a join table: edited links travel as their value.
        var linkedArrays: [LinkedArray] = []
        /// The mapping whose route its requests take (path, nested path, element, root style): its
        /// root's for a sub-entity without a source of its own, whose records arrive in its root's
        /// payloads (Rails' single-table inheritance: an `Admin` is `PUT /people/5.json
        /// {"person": ...}`), else its own.
        var route: EntityMapping
    }

    /// An array attribute whose values are the destination identities of a join table's links
    /// (`team_member_ids` and `projects_team_members`).
    struct LinkedArray {
        /// The join table's position in ``StoreLayout/joinTables``.
        var join: Int
        /// The attribute's column.
        var column: Int
        /// The destination root's table position.
        var destinationTable: Int
    }

    /// Columns of `table` that together hold an identity of `destination` (both table positions).
    struct ReferenceGroup {
        var table: Int
        var columns: [Int]
        var destination: Int
    }

    /// A join table (position in ``StoreLayout/joinTables``) with the table positions of its
    /// links' source and destination roots.
    struct JoinReference {
        var join: Int
        var source: Int
        var destination: Int
    }

    let schema: GraphSchema
    let layout: StoreLayout
    let entities: [EntitySync]
    let references: [ReferenceGroup]
    /// Every join table, once.
    let joins: [JoinReference]

    init(schema: GraphSchema) {
        self.schema = schema
        let layout = StoreLayout(schema: schema)
        self.layout = layout
        var entities: [EntitySync] = []
        var references: [ReferenceGroup] = []
        var joins: [Int: JoinReference] = [:]
        for type in schema.types {
            let binding = layout.bindings[type.index]
            let table = layout.tables[binding.table]
            for (relationship, join, _) in binding.joins {
                guard let destination = schema.type(named: type.mapping.relationships[relationship].destination)
                else { continue }
                joins[join] = JoinReference(
                    join: join, source: binding.table, destination: layout.bindings[destination.rootIndex].table)
            }
            var columns = zip(type.mapping.attributes, binding.attributeColumns).map { attribute, column in
                PayloadColumn(column: column, keyPath: attribute.keyPath, attribute: attribute)
            }
            for (relationship, foreignKeys) in binding.foreignKeys {
                columns += foreignKeys.map { PayloadColumn(column: $0, keyPath: [table.columns[$0].name]) }
                if let destination = schema.type(named: type.mapping.relationships[relationship].destination) {
                    references.append(
                        ReferenceGroup(
                            table: binding.table, columns: foreignKeys,
                            destination: layout.bindings[destination.rootIndex].table))
                }
            }
            references += Self.connectingReferences(type, binding: binding, schema: schema, layout: layout)
            entities.append(
                EntitySync(
                    type: type, table: table, tableIndex: binding.table, columns: columns,
                    typeValue: binding.typeValue,
                    linkedArrays: Self.linkedArrays(type, binding: binding, schema: schema, layout: layout),
                    route: type.mapping.source == nil && type.mapping.parent != nil
                        ? schema.root(of: type).mapping : type.mapping))
        }
        self.entities = entities
        self.joins = joins.keys.sorted().compactMap { joins[$0] }
        var seen = Set<String>()
        self.references = references.filter { seen.insert("\($0.table):\($0.columns):\($0.destination)").inserted }
    }

    /// The attribute columns that a `connect: {foreign_key: ...}` rule points at a destination's identity.
    private static func connectingReferences(
        _ type: EntityType, binding: EntityBinding, schema: GraphSchema, layout: StoreLayout
    ) -> [ReferenceGroup] {
        var groups: [ReferenceGroup] = []
        for relationship in type.mapping.relationships where relationship.kind == .toOne {
            guard case .foreignKey(let pairs) = relationship.connection?.rule,
                let destination = schema.type(named: relationship.destination)
            else { continue }
            let root = schema.root(of: destination)
            let columns = root.identityIndices.compactMap { identity -> Int? in
                let name = root.mapping.attributes[identity].name
                guard let pair = pairs.first(where: { $0.destination == name }),
                    let source = type.attributeIndex(pair.source)
                else { return nil }
                return binding.attributeColumns[source]
            }
            guard !columns.isEmpty, columns.count == root.identityIndices.count else { continue }
            groups.append(
                ReferenceGroup(table: binding.table, columns: columns, destination: layout.bindings[root.index].table))
        }
        return groups
    }

    /// The join tables that a foreign-key connection fills from an array attribute holding the
    /// lone identity of a root destination, with nothing else deciding the links (no `when`, `where`,
    /// or `include_subentities: false`): their links and that attribute say the same thing.
    private static func linkedArrays(
        _ type: EntityType, binding: EntityBinding, schema: GraphSchema, layout: StoreLayout
    ) -> [LinkedArray] {
        binding.joins.compactMap { relationship, join, _ in
            let mapping = type.mapping.relationships[relationship]
            guard let connection = mapping.connection, case .foreignKey(let pairs) = connection.rule,
                pairs.count == 1, connection.sourcePredicate.isEmpty, connection.destinationPredicate.isEmpty,
                connection.includeSubentities, let destination = schema.type(named: mapping.destination),
                let source = type.attributeIndex(pairs[0].source),
                case .array = type.mapping.attributes[source].type
            else { return nil }
            // Links to a sub-entity would leave out the family's other members the ids may name.
            guard destination.index == destination.rootIndex,
                destination.identityIndices.map({ destination.mapping.attributes[$0].name }) == [pairs[0].destination]
            else { return nil }
            return LinkedArray(
                join: join, column: binding.attributeColumns[source],
                destinationTable: layout.bindings[destination.index].table)
        }
    }

    /// The entity named `name`.
    func entity(named name: String) throws -> EntitySync {
        guard let type = schema.type(named: name) else { throw SyncError.unknownEntity(name) }
        return entities[type.index]
    }

    /// The entity a row of `table` belongs to, by its `type` column.
    func entity(ofRow row: [Value], table: Int) -> EntitySync? {
        let layoutTable = layout.tables[table]
        let family = entities.filter { $0.tableIndex == table }
        guard let discriminator = layoutTable.discriminator else {
            return family.first { $0.type.index == $0.type.rootIndex }
        }
        guard case .string(let value) = row[discriminator] else {
            return family.first { $0.type.index == $0.type.rootIndex }
        }
        return family.first { $0.typeValue == value }
    }
}

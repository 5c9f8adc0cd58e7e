/// The run's staging tables for a model: a ``StageTable`` per store table, a member table per
/// array foreign key, and a link table per nested relationship kept in a join table.
///
/// ```swift
/// let stage = StageLayout(store: StoreLayout(schema: schema))
/// stage.tables[0].stageName   // "_rmap_stage_0"
/// ```
struct StageLayout: Sendable {
    /// The store's tables.
    let store: StoreLayout
    /// The schema the tables follow.
    let schema: GraphSchema
    /// The stage tables, parallel to ``StoreLayout/tables``.
    let tables: [StageTable]
    /// The member tables of array foreign keys.
    let members: [StageMembers]
    /// The link tables of nested relationships kept in join tables.
    let nestedLinks: [StageNestedLinks]
    /// Per store table position, the entities it stores (a root and its sub-entities), in schema order.
    let families: [[EntityType]]

    /// Lays out the staging tables of a store layout.
    init(store: StoreLayout, schema: GraphSchema) {
        self.store = store
        self.schema = schema
        let keys = ConnectionKeyDemand(store: store, schema: schema)
        var members: [StageMembers] = []
        for (table, columns) in keys.arrays.sorted(by: { $0.key < $1.key }) {
            for key in columns.sorted(by: { ($0.column, "\($0.domain)") < ($1.column, "\($1.domain)") }) {
                members.append(
                    StageMembers(
                        table: table, column: key.column, domain: key.domain,
                        elementType: Self.elementType(store.tables[table].columns[key.column].type),
                        position: members.count))
            }
        }
        var nestedLinks: [StageNestedLinks] = []
        for type in schema.types {
            let binding = store.bindings[type.index]
            for (relationship, join, _) in binding.joins where type.mapping.relationships[relationship].nested {
                guard !nestedLinks.contains(where: { $0.join == join }) else { continue }
                nestedLinks.append(StageNestedLinks(join: join, layout: store.joinTables[join]))
            }
        }
        var families = Array(repeating: [EntityType](), count: store.tables.count)
        for type in schema.types { families[store.bindings[type.index].table].append(type) }
        // Children holding their parent's key: which occurrence set the key, and which named the set.
        let released = ChildHeldLink.all(schema: schema, store: store)
        tables = store.tables.enumerated().map { position, table in
            let family = families[position]
            var assigned: [String] = []
            for type in family {
                for relationship in type.mapping.relationships where relationship.nested {
                    if !assigned.contains(relationship.name) { assigned.append(relationship.name) }
                }
            }
            let arrays = Set(members.filter { $0.table == position }.map(\.column))
            let joins = Set(nestedLinks.map(\.layout.relationship))
            let childKeys = released.filter { store.bindings[$0.child.index].table == position }.compactMap(
                \.columns.first)
            let parents = Set(released.filter { store.bindings[$0.parent.index].table == position }.map(\.relationship))
            let tracked =
                arrays.union(childKeys).sorted()
                + assigned.enumerated().filter { joins.contains($1) || parents.contains($1) }.map {
                    table.columns.count + $0.0
                }
            return StageTable(
                table: table, position: position, assignedRelationships: assigned,
                connectionKeys: (keys.scalars[position] ?? []).sorted {
                    ($0.column, "\($0.domain)") < ($1.column, "\($1.domain)")
                }, trackedSlots: tracked)
        }
        self.members = members
        self.nestedLinks = nestedLinks
        self.families = families
        readsOccurrences = RequiredCheck.isNeeded(in: schema) || !ExecTransformer.all(in: schema).isEmpty
    }

    /// Whether something reads the run's occurrences after staging, not just the merged rows:
    /// `required` (checked on occurrences, rejecting whole records) and `exec` transformers (run
    /// over them). Worked out once: every table asks.
    let readsOccurrences: Bool

    /// Whether a table's occurrences are merged into its rows (``RowCollapse``) as they are staged,
    /// skipping the occurrence table: when the engine upserts in order
    /// (``SQLDialect/upsertsInOrder``), the table has an identity, and nothing reads occurrences.
    func mergesWhileStaging(_ stage: StageTable, dialect: any SQLDialect.Type) -> Bool {
        dialect.upsertsInOrder && !stage.keyColumns.isEmpty && !readsOccurrences
    }

    /// Whether a tombstone (`delete_when`) may delete objects of table `position` in the merge.
    func hasTombstones(table position: Int) -> Bool {
        schema.types.contains { store.bindings[$0.index].table == position && $0.mapping.deletion.tombstone != nil }
    }

    /// The stage table of an entity.
    func table(of type: EntityType) -> StageTable {
        tables[store.bindings[type.index].table]
    }

    /// The member table of an array column in a domain.
    func members(table: Int, column: Int, domain: KeyDomain) -> StageMembers? {
        members.first { $0.table == table && $0.column == column && $0.domain == domain }
    }

    private static func elementType(_ type: AttributeType) -> AttributeType {
        if case .array(let element) = type { return element }
        return type
    }
}

/// The members of one array column's values, one row per element, keyed in a domain:
/// `_rmap_members_<n>(_seq, _pos, _value, _key)`.
struct StageMembers: Sendable {
    /// The stage table's position.
    let table: Int
    /// The array column.
    let column: Int
    /// The domain its members are compared in.
    let domain: KeyDomain
    /// The type of an element.
    let elementType: AttributeType
    /// The table's number.
    let position: Int

    /// The table's name.
    var name: String { "_rmap_members_\(position)" }

    /// `_seq` (the occurrence), `_pos` (the element's place), `_value`, `_key`.
    var columns: [ColumnLayout] {
        [
            ColumnLayout(name: "_seq", type: .int), ColumnLayout(name: "_pos", type: .int),
            ColumnLayout(name: "_value", type: elementType), ColumnLayout(name: "_key", type: domain.columnType),
        ]
    }
}

/// The links a nested relationship kept in a join table names, by the parent's occurrence:
/// `_rmap_nested_<join>(_seq, <join table's columns>)`.
struct StageNestedLinks: Sendable {
    /// The join table's position in ``StoreLayout/joinTables``.
    let join: Int
    /// The join table.
    let layout: JoinTableLayout

    /// The table's name.
    var name: String { "_rmap_nested_\(join)" }

    /// `_seq` (the parent's occurrence), then the join table's columns (`position` last when ordered).
    var columns: [ColumnLayout] { [ColumnLayout(name: "_seq", type: .int)] + layout.columns }

    /// True for a link (alias `link`) that parent row `parent` keeps, whose assignment slot is
    /// `slot`: one of the parent's last occurrence that named the set (`replace`), or one of an
    /// occurrence after the last that emptied it with `null` (`union`).
    func kept(_ link: String, by parent: String, slot: Int, dialect: any SQLDialect.Type) -> String {
        let seq = "\(link).\(dialect.quote("_seq"))"
        let last = "\(parent).\(dialect.quote("_at\(slot)"))"
        return layout.union ? "\(seq) > COALESCE(\(last), 0)" : "\(seq) = \(last)"
    }
}

/// Which columns connections compare, and in which domains: scalar columns get a key column in
/// their stage table, array columns a member table.
private struct ConnectionKeyDemand {
    /// By stage table position, the scalar key columns.
    var scalars: [Int: Set<ConnectionKeyColumn>] = [:]
    /// By stage table position, the array columns.
    var arrays: [Int: Set<ConnectionKeyColumn>] = [:]

    init(store: StoreLayout, schema: GraphSchema) {
        for step in ConnectionOrder.steps(of: schema) {
            switch step.connection.rule {
            case .foreignKey(let pairs):
                // Destinations found by their whole identity are found by its keys (`_k0`, ...).
                let byIdentity = step.matchesIdentity
                for pair in pairs {
                    guard let destination = step.destination.mapping.attribute(named: pair.destination) else {
                        continue
                    }
                    let domain = KeyDomain(destination.type)
                    add(step.source, pair.source, domain, store: store)
                    guard !byIdentity else { continue }
                    for member in schema.family(of: step.destination) {
                        add(member, pair.destination, domain, store: store)
                    }
                }
            case .keyPath:
                guard case .attribute(let name)? = step.end, let reached = step.reachedEntity(schema: schema) else {
                    continue
                }
                // A composite identity is read from an array of its values: each member in its part's domain.
                for identity in step.destination.mapping.identity {
                    guard let attribute = step.destination.mapping.attribute(named: identity) else { continue }
                    for member in schema.family(of: reached) {
                        add(member, name, KeyDomain(attribute.type), store: store)
                    }
                }
            }
        }
    }

    private mutating func add(_ type: EntityType, _ attribute: String, _ domain: KeyDomain, store: StoreLayout) {
        guard let position = type.attributeIndex(attribute) else { return }
        let binding = store.bindings[type.index]
        let column = binding.attributeColumns[position]
        let key = ConnectionKeyColumn(column: column, domain: domain)
        if type.mapping.attributes[position].type.isArray {
            arrays[binding.table, default: []].insert(key)
        } else {
            scalars[binding.table, default: []].insert(key)
        }
    }
}

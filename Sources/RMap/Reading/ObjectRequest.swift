/// What one read of a store asks for, by the model's names: the objects of an entity (or those a
/// relationship of one object holds), under conditions, in an order, a window of them. It becomes
/// one ``ObjectSelect`` (``StoredModel/select(_:dialect:)``), where every name is checked.
struct ObjectRequest: Sendable {
    /// One object's row, the start of a relationship.
    struct Source: Sendable {
        /// The object's entity.
        var entity: String
        /// The row's handle.
        var handle: RowReference
        /// The row's values, parallel to its table's columns.
        var row: [Value]
    }

    /// Whose objects.
    enum Target: Sendable {
        /// Every object of the entity (its sub-entities' included).
        case entity(String)
        /// The objects a relationship of one object holds.
        case related(Source, relationship: String)
    }

    var target: Target
    /// Conditions by attribute name, ANDed.
    var conditions: [(attribute: String, value: QueryValue)] = []
    /// The order, by attribute names; the store's own order after it.
    var sort: [SortKey] = []
    /// The most objects; `nil` for all.
    var limit: Int?
    /// How many to skip first.
    var offset = 0
}

extension StoredModel {
    /// What ``select(_:dialect:)`` makes of a request.
    struct Selection {
        var select: ObjectSelect
        /// The entity the request reads.
        var entity: EntityType
        /// For a relationship: whether it is a to-many.
        var toMany: Bool?
    }

    /// The select of a request's objects; with `holders: false`, one that reads no holder
    /// column (``ObjectSelect/holderColumns``), for a store that lacks them.
    ///
    /// - Throws: ``ReadError`` for a name the model lacks, a relationship whose links the store
    ///   does not keep, or a condition's value that the attribute's type cannot hold.
    func select(_ request: ObjectRequest, dialect: any SQLDialect.Type, holders: Bool = true) throws(ReadError)
        -> Selection
    {
        let entity: EntityType
        var select: ObjectSelect
        var toMany: Bool?
        switch request.target {
        case .entity(let name):
            entity = try type(named: name)
            select = ObjectSelect(table: table(of: entity), dialect: dialect)
            if let rows = rows(of: schema.family(of: entity), alias: ObjectSelect.alias, dialect: dialect) {
                select.condition(rows)
            }
        case .related(let source, let name):
            let path = try RelationshipPath(self, from: try type(named: source.entity), name)
            entity = path.destination
            toMany = path.toMany
            select = ObjectSelect(table: table(of: entity), dialect: dialect)
            path.follow(from: source.row, handle: source.handle, holders: holders, into: &select)
        }
        let userOrder = try request.sort.map { key throws(ReadError) in
            let column = try self.column(key.attribute, of: entity)
            return ObjectSelect.OrderKey(
                expression: select.column(column.name), type: column.type, descending: key.descending)
        }
        select.order.insert(contentsOf: userOrder, at: 0)
        for (attribute, value) in request.conditions {
            let column = try self.column(attribute, of: entity)
            var values: [Value] = []
            for given in value.values {
                guard let typed = Self.value(given, as: column.type) else {
                    throw .wrongType(
                        entity: entity.name, attribute: attribute, expected: column.type.description, found: given)
                }
                values.append(typed)
            }
            select.condition(
                Self.matching(select.column(column.name), column.type, values, dialect), values.filter { !$0.isNull })
        }
        return Selection(select: select, entity: entity, toMany: toMany)
    }

    /// The column of `entity`'s attribute `name`.
    func column(_ name: String, of entity: EntityType) throws(ReadError) -> ColumnLayout {
        guard let index = entity.attributeIndex(name) else { throw .unknownAttribute(entity: entity.name, name: name) }
        return table(of: entity).columns[binding(of: entity).attributeColumns[index]]
    }

    /// `value` as a value of `type`, as a payload's would become one; `nil` when it cannot be.
    static func value(_ value: Value, as type: AttributeType) -> Value? {
        value.isNull ? .null : ValueConverter.value(from: ValueConverter.json(from: value), as: type)
    }

    /// True when `column` holds one of `values` (the non-null ones bound, in order), compared as
    /// rmap compares values.
    static func matching(_ column: String, _ type: AttributeType, _ values: [Value], _ dialect: any SQLDialect.Type)
        -> String
    {
        let alternatives = values.map { $0.isNull ? "\(column) IS NULL" : equals(column, type, dialect) }
        return alternatives.isEmpty ? "1 = 0" : "(\(alternatives.joined(separator: " OR ")))"
    }

    /// True when `column` holds the value bound to `?`, as rmap compares values: `=`, which an
    /// index serves, or for decimals ``SQLDialect/same(_:_:type:)`` (SQLite keeps them as text).
    static func equals(_ column: String, _ type: AttributeType, _ dialect: any SQLDialect.Type) -> String {
        type == .decimal ? dialect.same(column, "?", type: type) : "\(column) = ?"
    }
}

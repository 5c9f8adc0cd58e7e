/// The object graph of one run: every object by entity, with an identity map
/// that keeps one object per (root entity, identity).
///
/// Objects are packed per root entity (see ``ObjectTable``);
/// ``GraphObject``s are handles on them.
///
/// ```swift
/// let person = try graph.object(of: "CRMPerson", identity: [.int(1)])
/// let projects = try person?.related("projects") ?? []
/// ```
public final class ObjectGraph {
    /// The schema the objects follow.
    public let schema: GraphSchema
    /// Per entity position: its root's table (the same table for a whole family).
    private let tables: [ObjectTable]
    /// Payload names by number, and numbers by name: objects keep a number.
    private var originNames: [String] = []
    private var originNumbers: [String: Int32] = [:]
    private var lastOrigin: (name: String, number: Int32)?
    /// The origin number of objects read from the store for connections (``addStored(_:values:)``), once one is.
    var storedSource: Int32?

    /// Creates an empty graph.
    public init(schema: GraphSchema) {
        self.schema = schema
        let identityPositions = schema.types.map { $0.identityIndices.count == 1 ? $0.identityIndices[0] : -1 }
        let roots = schema.types.map { type in
            type.rootIndex == type.index
                ? ObjectTable(slots: schema.relationshipSlots.slots[type.index], identityPositions: identityPositions)
                : nil
        }
        tables = schema.types.map { roots[$0.rootIndex]! }
    }

    /// The table of a root entity (or of any member of its family).
    func table(_ position: Int) -> ObjectTable { tables[position] }

    /// The slot keeping relationship `position` of `type`, and the root position its links point into.
    func slot(of type: EntityType, relationship position: Int) -> (slot: Int, destination: Int) {
        let slot = schema.relationshipSlots.positions[type.index][position]
        return (slot, tables[type.rootIndex].slots[slot].destinationRoot)
    }

    /// The object with this identity in the entity's family (sub-entities share their root's
    /// identities): `nil` when the graph holds none.
    ///
    /// - Throws: ``GraphError/unknownEntity(_:)`` when the schema has no entity `entity`.
    public func object(of entity: String, identity: [Value]) throws(GraphError) -> GraphObject? {
        object(root: try type(entity).rootIndex, identity: IdentityKey(identity))
    }

    /// The object of a root entity with this identity.
    package func object(root: Int, identity: IdentityKey) -> GraphObject? {
        tables[root].row(identity: identity).map { GraphObject(graph: self, root: root, row: $0) }
    }

    /// The objects of an entity and its sub-entities, in the order first seen.
    ///
    /// - Throws: ``GraphError/unknownEntity(_:)`` when the schema has no entity `entity`.
    public func objects(of entity: String) throws(GraphError) -> [GraphObject] {
        objects(of: try type(entity))
    }

    /// The objects of `type` and its sub-entities, in the order first seen.
    package func objects(of type: EntityType) -> [GraphObject] {
        let table = tables[type.rootIndex]
        let family = Set(schema.family(of: type).map(\.index))
        return table.rows.filter { family.contains(table.type(of: $0)) }.map {
            GraphObject(graph: self, root: type.rootIndex, row: $0)
        }
    }

    /// The objects stored in a root entity's table, in the order first seen.
    package func objects(root: Int) -> [GraphObject] {
        tables[root].rows.map { GraphObject(graph: self, root: root, row: $0) }
    }

    /// Every object.
    public var allObjects: [GraphObject] { schema.roots.flatMap { objects(root: $0.index) } }

    /// How many objects the graph holds.
    public var count: Int { schema.roots.reduce(0) { $0 + tables[$1.index].count } }

    /// The object with `identity` in `type`'s family, created when new; an
    /// existing object of another family member is retyped to `type`.
    ///
    /// - Returns: the object and whether it was created.
    public func upsert(_ type: EntityType, identity: IdentityKey, origin: String) -> (GraphObject, created: Bool) {
        let (object, created) = upsert(type, identity: identity, values: nil, source: originNumber(origin), record: -1)
        if !created { object.origin = origin }
        return (object, created)
    }

    /// ``upsert(_:identity:origin:)`` for the `index`th record of the payload `source`; a created
    /// object takes `values` (one per attribute of `type`), an existing one ignores them.
    func upsert(
        _ type: EntityType, identity: IdentityKey, source: String, index: Int, values: [Value?]
    ) -> (GraphObject, created: Bool) {
        let number = originNumber(source)
        let record = Int32(clamping: index)
        let (object, created) = upsert(type, identity: identity, values: values, source: number, record: record)
        if !created { tables[type.rootIndex].setOrigin(of: object.row, source: number, record: record) }
        return (object, created)
    }

    private func upsert(
        _ type: EntityType, identity: IdentityKey, values: [Value?]?, source: Int32, record: Int32
    ) -> (GraphObject, created: Bool) {
        let table = tables[type.rootIndex]
        if !identity.isIncomplete, let row = table.row(identity: identity) {
            let existing = GraphObject(graph: self, root: type.rootIndex, row: row)
            existing.retype(type)
            return (existing, false)
        }
        // An object made without values holds its identity: the identity map reads it from the values.
        var values = values ?? Array(repeating: nil, count: type.mapping.attributes.count)
        for (position, value) in zip(type.identityIndices, identity.values) where values[position] == nil {
            values[position] = value
        }
        let row = table.add(type: type.index, values: values, source: source, record: record)
        if !identity.isIncomplete { table.index(row, identity: identity) }
        return (GraphObject(graph: self, root: type.rootIndex, row: row), true)
    }

    /// Adds an object of `entity` with no identity yet (a new object made locally).
    ///
    /// - Throws: ``GraphError/unknownEntity(_:)`` when the schema has no entity `entity`.
    public func insert(_ entity: String) throws(GraphError) -> GraphObject {
        upsert(try type(entity), identity: IdentityKey([]), origin: "local").0
    }

    /// The schema's entity `name`.
    private func type(_ name: String) throws(GraphError) -> EntityType {
        guard let type = schema.type(named: name) else { throw .unknownEntity(name) }
        return type
    }

    /// Removes an object (a record rejected after mapping) and every link to it.
    public func remove(_ object: GraphObject) {
        let table = tables[object.root]
        guard !table.removed.contains(object.row) else { return }
        table.unindex(object.row, identity: object.identity)
        for (index, relationship) in object.type.mapping.relationships.enumerated() {
            guard let inverse = relationship.inverse else { continue }
            for other in object.related(at: index) {
                guard let position = other.type.relationshipIndex(inverse) else { continue }
                other.setRelated(at: position, to: other.related(at: position).filter { $0 != object })
            }
        }
        table.remove(object.row)
    }

    // MARK: - Origins

    /// The number of a payload name, added when new.
    func originNumber(_ name: String) -> Int32 {
        if let last = lastOrigin, last.name == name { return last.number }
        let number: Int32
        if let known = originNumbers[name] {
            number = known
        } else {
            number = Int32(originNames.count)
            originNames.append(name)
            originNumbers[name] = number
        }
        lastOrigin = (name, number)
        return number
    }

    /// The payload name of a number (empty for -1: none).
    func originName(_ number: Int32) -> String { number < 0 ? "" : originNames[Int(number)] }
}

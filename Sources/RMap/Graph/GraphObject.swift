/// One object of the graph: an entity, its typed attribute values and its
/// related objects, read and written by name (see `GraphObject+Names.swift`):
///
/// ```swift
/// let name: String? = try person["firstName"]
/// let projects = try person.related("projects")
/// try person.set("email", to: "ada@example.com")
/// ```
///
/// A `GraphObject` is a handle on a row of its ``ObjectGraph`` (which keeps
/// every object packed, see ``ObjectTable``): two handles on the same object
/// are equal (`==`), and setting a value through any of them changes the
/// object. A handle keeps its graph alive.
///
/// An attribute's value is `nil` while no payload has carried its key (a
/// missing key keeps what the store has) and `.null` once a payload said
/// `null` (which clears it). Objects are owned by one graph and are not
/// shared across tasks.
public struct GraphObject: Hashable {
    let graph: ObjectGraph
    /// The root entity's position: the table holding the object.
    let root: Int
    /// The object's row in its table.
    let row: Int

    init(graph: ObjectGraph, root: Int, row: Int) {
        self.graph = graph
        self.root = root
        self.row = row
    }

    private var table: ObjectTable { graph.table(root) }

    /// The object's entity (a sub-entity for polymorphic records).
    public var type: EntityType { graph.schema.types[table.type(of: row)] }

    /// Values by attribute position; `nil` for keys no payload carried. Setting it rewrites the
    /// whole row (the map stage's write of a record); ``set(_:at:)`` sets one value.
    package internal(set) var values: [Value?] {
        get { table.values(of: row) }
        nonmutating set { table.setValues(of: row, to: newValue) }
    }

    /// Calls `body` with each value a payload carried (`nil` ones are left out) and its position.
    func forEachValue(_ body: (Int, Value) -> Void) { table.forEachValue(of: row, body) }

    /// The value at an attribute position, without reading the others.
    func value(at position: Int) -> Value? { table.value(of: row, at: position) }

    /// Related objects by relationship position (to-one: at most one).
    package var related: [[GraphObject]] {
        type.mapping.relationships.indices.map { related(at: $0) }
    }

    /// The objects related through the relationship at `position`.
    func related(at position: Int) -> [GraphObject] {
        let (slot, destination) = graph.slot(of: type, relationship: position)
        return table.links(of: row, slot: slot).map { GraphObject(graph: graph, root: destination, row: Int($0)) }
    }

    /// The one object of the to-one relationship at `position`.
    func relatedObject(at position: Int) -> GraphObject? {
        let (slot, destination) = graph.slot(of: type, relationship: position)
        return table.firstLink(of: row, slot: slot).map { GraphObject(graph: graph, root: destination, row: $0) }
    }

    /// Sets the relationship at `position` (a to-one keeps the first object).
    func setRelated(at position: Int, to objects: [GraphObject]) {
        let (slot, destination) = graph.slot(of: type, relationship: position)
        if objects.count <= 1, !table.slots[slot].toMany { return setRelated(at: position, to: objects.first) }
        table.setLinks(
            of: row, slot: slot,
            to: objects.map { object in
                precondition(object.root == destination && object.graph === graph, "a link to another table")
                return Int32(object.row)
            })
    }

    /// Sets the to-one relationship at `position` to `object` (`nil`: none), without an array.
    func setRelated(at position: Int, to object: GraphObject?) {
        let (slot, destination) = graph.slot(of: type, relationship: position)
        precondition(!table.slots[slot].toMany, "a to-many set to one object")
        precondition(object.map { $0.root == destination && $0.graph === graph } ?? true, "a link to another table")
        table.setLink(of: row, slot: slot, to: object.map { Int32($0.row) })
    }

    /// Sets the to-many relationship at `position` to the objects at `rows` of the table of root
    /// entity `root` (its destination's), without a handle per object.
    func setRelated(at position: Int, toRows rows: some Collection<Int32>, of root: Int) {
        let (slot, destination) = graph.slot(of: type, relationship: position)
        precondition(table.slots[slot].toMany, "a to-one set to rows")
        precondition(root == destination, "a link to another table")
        table.setLinks(of: row, slot: slot, to: rows)
    }

    /// Records that a payload set the relationship at `position` (to a list or `null`).
    func markAssigned(at position: Int) {
        table.markAssigned(row, slot: graph.slot(of: type, relationship: position).slot)
    }

    /// Whether a payload set the relationship at `position`: an empty one then clears the stored links.
    func isAssigned(at position: Int) -> Bool {
        table.isAssigned(row, slot: graph.slot(of: type, relationship: position).slot)
    }

    /// Where the object's last record came from, e.g. `samples/people.json#3`.
    ///
    /// Kept as the payload's number in the graph and the record's index, so a
    /// million objects do not hold a million strings.
    public internal(set) var origin: String {
        get {
            let (source, record) = table.origin(of: row)
            let name = graph.originName(source)
            return record < 0 ? name : "\(name)#\(record)"
        }
        nonmutating set { table.setOrigin(of: row, source: graph.originNumber(newValue), record: -1) }
    }

    /// Records that the object's last record is the `index`th of the payload `source`.
    func setOrigin(_ source: String, index: Int) {
        table.setOrigin(of: row, source: graph.originNumber(source), record: Int32(clamping: index))
    }

    /// The identity key (nulls where identity values are missing).
    public var identity: IdentityKey {
        let positions = type.identityIndices
        if positions.count == 1 { return IdentityKey([value(at: positions[0]) ?? .null]) }
        let values = self.values
        return IdentityKey(positions.map { values[$0] ?? .null })
    }

    /// Appends the identity values to `values`; false (and `values` unusable) when one is missing or null.
    func appendIdentity(to values: inout [Value]) -> Bool {
        let positions = type.identityIndices
        guard !positions.isEmpty else { return false }
        for position in positions {
            guard let value = value(at: position), !value.isNull else { return false }
            values.append(value)
        }
        return true
    }

    /// The value of the attribute named `name` as stored (`.null` when a payload said `null`):
    /// `nil` when the entity has no such attribute or no payload carried it. For stages whose
    /// names the model checked; the public reads throw for an unknown name.
    package subscript(attribute name: String) -> Value? {
        type.attributeIndex(name).flatMap { value(at: $0) }
    }

    /// Sets the value at an attribute position without rewriting the row (`nil`: missing),
    /// keeping the identity map current when the position is one of the identity's.
    ///
    /// - Throws: ``GraphError/identityTaken(entity:identity:)`` when another object of the
    ///   family has the new identity (nothing changes then).
    func set(_ value: Value?, at position: Int) throws(GraphError) {
        let type = self.type
        guard let part = type.identityIndices.firstIndex(of: position) else {
            setValue(value, at: position)
            return
        }
        let old = identity
        var values = old.values
        values[part] = value ?? .null
        let new = IdentityKey(values)
        if !new.isIncomplete, let other = table.row(identity: new), other != row {
            throw .identityTaken(entity: type.name, identity: new)
        }
        if !old.isIncomplete { table.unindex(row, identity: old) }
        table.setValue(of: row, at: position, to: value)
        if !new.isIncomplete { table.index(row, identity: new) }
    }

    /// Sets the value at a position without rewriting the row and without touching the identity
    /// map: for a position that is not one of the identity's, or an identity value equal to the
    /// old one (``set(_:at:)`` moves the object in the map).
    func setValue(_ value: Value?, at position: Int) {
        table.setValue(of: row, at: position, to: value)
    }

    /// Turns the object into a sub-entity (or back), keeping values by attribute
    /// name; links stay in their table's slots.
    func retype(_ newType: EntityType) {
        let type = self.type
        guard newType !== type else { return }
        let values = self.values
        var newValues: [Value?] = Array(repeating: nil, count: newType.mapping.attributes.count)
        for (index, attribute) in type.mapping.attributes.enumerated() {
            if let position = newType.attributeIndex(attribute.name) { newValues[position] = values[index] }
        }
        table.setType(of: row, to: newType.index)
        self.values = newValues
    }

    /// True when both handles are on the same object of the same graph.
    public static func == (lhs: GraphObject, rhs: GraphObject) -> Bool {
        lhs.row == rhs.row && lhs.root == rhs.root && lhs.graph === rhs.graph
    }

    /// Hashes the object's table and row.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(root)
        hasher.combine(row)
    }
}

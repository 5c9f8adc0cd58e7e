/// One object of the graph: an entity, its typed attribute values and its
/// related objects.
///
/// An attribute's value is `nil` while no payload has carried its key (a
/// missing key keeps what the store has) and `.null` once a payload said
/// `null` (which clears it). Objects are owned by one ``ObjectGraph`` and are
/// not shared across tasks.
public final class GraphObject {
    /// The object's entity (a sub-entity for polymorphic records).
    public private(set) var type: EntityType
    /// Values by attribute position; `nil` for keys no payload carried.
    public internal(set) var values: [Value?]
    /// Related objects by relationship position (to-one: at most one).
    public internal(set) var related: [[GraphObject]]
    /// The payload (file or URL) of the object's last record, shared by every object it made.
    private var originSource: String
    /// The record's index in ``originSource``, or -1 when the origin is not a record's.
    private var originIndex: Int

    /// Where the object's last record came from, e.g. `samples/people.json#3`.
    ///
    /// Kept as the payload's shared text and the record's index, so a million
    /// objects do not hold a million strings.
    public internal(set) var origin: String {
        get { originIndex < 0 ? originSource : "\(originSource)#\(originIndex)" }
        set {
            originSource = newValue
            originIndex = -1
        }
    }

    /// Creates an object holding `values` (one per attribute; all `nil` when not given).
    init(type: EntityType, origin: String, values: [Value?]? = nil) {
        self.type = type
        originSource = origin
        originIndex = -1
        self.values = values ?? Array(repeating: nil, count: type.mapping.attributes.count)
        related = Array(repeating: [], count: type.mapping.relationships.count)
    }

    /// Records that the object's last record is the `index`th of the payload `source`.
    func setOrigin(_ source: String, index: Int) {
        originSource = source
        originIndex = index
    }

    /// The identity key (nulls where identity values are missing).
    public var identity: IdentityKey {
        IdentityKey(type.identityIndices.map { values[$0] ?? .null })
    }

    /// The value of the attribute named `name`: `nil` when the entity has no
    /// such attribute or no payload carried it.
    public subscript(attribute name: String) -> Value? {
        type.attributeIndex(name).flatMap { values[$0] }
    }

    /// The objects related through the relationship named `name` (empty when there are none).
    public func related(_ name: String) -> [GraphObject] {
        type.relationshipIndex(name).map { related[$0] } ?? []
    }

    /// The one object of a to-one relationship.
    public func relatedObject(_ name: String) -> GraphObject? {
        related(name).first
    }

    /// Sets an attribute by name, e.g. from the library API.
    ///
    /// - Returns: false when the entity has no such attribute.
    @discardableResult
    public func set(_ name: String, to value: Value) -> Bool {
        guard let index = type.attributeIndex(name) else { return false }
        values[index] = value
        return true
    }

    /// Turns the object into a sub-entity (or back), keeping values by attribute name.
    func retype(_ newType: EntityType) {
        guard newType !== type else { return }
        var newValues: [Value?] = Array(repeating: nil, count: newType.mapping.attributes.count)
        for (index, attribute) in type.mapping.attributes.enumerated() {
            if let position = newType.attributeIndex(attribute.name) { newValues[position] = values[index] }
        }
        var newRelated: [[GraphObject]] = Array(repeating: [], count: newType.mapping.relationships.count)
        for (index, relationship) in type.mapping.relationships.enumerated() {
            if let position = newType.relationshipIndex(relationship.name) { newRelated[position] = related[index] }
        }
        type = newType
        values = newValues
        related = newRelated
    }
}

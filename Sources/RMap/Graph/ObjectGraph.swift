/// The object graph of one run: every object by entity, with an identity map
/// that keeps one object per (root entity, identity).
///
/// ```swift
/// let person = graph.object(of: "CRMPerson", identity: [.int(1)])
/// let projects = person?.related("projects") ?? []
/// ```
public final class ObjectGraph {
    /// The schema the objects follow.
    public let schema: GraphSchema
    /// Objects per root entity, in the order first seen.
    private var objectsByRoot: [[GraphObject]]
    /// Identity map per root entity.
    private var identityMaps: [[GraphKey: GraphObject]]

    /// Creates an empty graph.
    public init(schema: GraphSchema) {
        self.schema = schema
        objectsByRoot = Array(repeating: [], count: schema.types.count)
        identityMaps = Array(repeating: [:], count: schema.types.count)
    }

    /// The object with this identity in the entity's family (sub-entities share their root's identities).
    public func object(of entity: String, identity: [Value]) -> GraphObject? {
        guard let type = schema.type(named: entity) else { return nil }
        return object(root: type.rootIndex, identity: IdentityKey(identity))
    }

    /// The object of a root entity with this identity.
    public func object(root: Int, identity: IdentityKey) -> GraphObject? {
        identityMaps[root][GraphKey(identity)]
    }

    /// The objects of an entity and its sub-entities, in the order first seen.
    public func objects(of entity: String) -> [GraphObject] {
        guard let type = schema.type(named: entity) else { return [] }
        let root = objectsByRoot[type.rootIndex]
        if type.rootIndex == type.index { return root }
        let family = Set(schema.family(of: type).map(\.index))
        return root.filter { family.contains($0.type.index) }
    }

    /// The objects stored in a root entity's table, in the order first seen.
    public func objects(root: Int) -> [GraphObject] { objectsByRoot[root] }

    /// Every object.
    public var allObjects: [GraphObject] { objectsByRoot.flatMap { $0 } }

    /// How many objects the graph holds.
    public var count: Int { objectsByRoot.reduce(0) { $0 + $1.count } }

    /// The object with `identity` in `type`'s family, created when new; an
    /// existing object of another family member is retyped to `type`.
    ///
    /// - Returns: the object and whether it was created.
    public func upsert(_ type: EntityType, identity: IdentityKey, origin: String) -> (GraphObject, created: Bool) {
        let (object, created) = upsert(type, identity: identity)
        object.origin = origin
        return (object, created)
    }

    /// ``upsert(_:identity:origin:)`` for the `index`th record of the payload `source`; a created
    /// object takes `values` (one per attribute of `type`) as its own, an existing one ignores them.
    func upsert(
        _ type: EntityType, identity: IdentityKey, source: String, index: Int, values: [Value?]
    ) -> (GraphObject, created: Bool) {
        let (object, created) = upsert(type, identity: identity, values: values)
        object.setOrigin(source, index: index)
        return (object, created)
    }

    private func upsert(
        _ type: EntityType, identity: IdentityKey, values: [Value?]? = nil
    ) -> (GraphObject, created: Bool) {
        let key = identity.isIncomplete ? nil : GraphKey(identity)
        if let key, let existing = identityMaps[type.rootIndex][key] {
            existing.retype(type)
            return (existing, false)
        }
        let object = GraphObject(type: type, origin: "", values: values)
        objectsByRoot[type.rootIndex].append(object)
        if let key { identityMaps[type.rootIndex][key] = object }
        return (object, true)
    }

    /// Adds an object with no identity yet (a new object made locally).
    public func insert(_ entity: String) -> GraphObject? {
        guard let type = schema.type(named: entity) else { return nil }
        return upsert(type, identity: IdentityKey([]), origin: "local").0
    }

    /// Removes an object (a record rejected after mapping) and every link to it.
    public func remove(_ object: GraphObject) {
        let root = object.type.rootIndex
        objectsByRoot[root].removeAll { $0 === object }
        let identity = object.identity
        let key = GraphKey(identity)
        if identityMaps[root][key] === object { identityMaps[root][key] = nil }
        for (index, relationship) in object.type.mapping.relationships.enumerated() {
            guard let inverse = relationship.inverse else { continue }
            for other in object.related[index] {
                guard let position = other.type.relationshipIndex(inverse) else { continue }
                other.related[position].removeAll { $0 === object }
            }
        }
    }

    /// Re-indexes an object whose identity values were set after it was added.
    public func reindex(_ object: GraphObject) {
        let identity = object.identity
        guard !identity.isIncomplete else { return }
        identityMaps[object.type.rootIndex][GraphKey(identity)] = object
    }
}

/// An identity as the identity map holds it: a lone integer (the usual `id`)
/// inline, any other identity as its values. One-to-one with ``IdentityKey``,
/// so equal keys are equal identities; the map holds no array per object.
private enum GraphKey: Hashable {
    case int(Int64)
    case values([Value])

    init(_ identity: IdentityKey) {
        if identity.values.count == 1, case .int(let number) = identity.values[0] {
            self = .int(number)
        } else {
            self = .values(identity.values)
        }
    }
}

/// One connected relationship of one entity: what the connect stage resolves
/// for the objects of exactly that entity (sub-entities have their own steps
/// for the relationships they inherit).
struct ConnectionStep {
    /// How a key path ends.
    enum PathEnd {
        /// On an attribute holding the destination's identity.
        case attribute(String)
        /// On a relationship holding the destinations themselves.
        case relationship(String)
    }

    /// The sources' entity.
    let source: EntityType
    /// The relationship's position in the source entity.
    let position: Int
    /// The relationship.
    let relationship: RelationshipMapping
    /// Its connection.
    let connection: Connection
    /// The destination entity.
    let destination: EntityType
    /// For a key path: the relationships it goes through, in order.
    let through: [String]
    /// For a key path: its last segment.
    let end: PathEnd?
    /// The destination attributes a value is looked up by: the foreign key's,
    /// or the destination's identity for a key path.
    let keyAttributes: [String]
    /// For a foreign key: the source attributes, in the order of ``keyAttributes``.
    let foreignKeySources: [String]

    /// The step of a connected relationship, or `nil` when the model does not resolve it.
    init?(source: EntityType, position: Int, schema: GraphSchema) {
        let relationship = source.mapping.relationships[position]
        guard let connection = relationship.connection, let destination = schema.type(named: relationship.destination)
        else { return nil }
        self.source = source
        self.position = position
        self.relationship = relationship
        self.connection = connection
        self.destination = destination
        switch connection.rule {
        case .foreignKey(let pairs):
            keyAttributes = pairs.map(\.destination)
            foreignKeySources = pairs.map(\.source)
            through = []
            end = nil
            return
        case .keyPath:
            keyAttributes = destination.mapping.identity
            foreignKeySources = []
        }
        guard case .keyPath(let path) = connection.rule, let last = path.last else { return nil }
        var entity = source
        for segment in path.dropLast() {
            guard let next = entity.mapping.relationship(named: segment).flatMap({ schema.type(named: $0.destination) })
            else { return nil }
            entity = next
        }
        through = Array(path.dropLast())
        end = entity.attributeIndex(last) != nil ? .attribute(last) : .relationship(last)
    }

    /// True for a foreign key whose destination attributes are the destination's whole identity:
    /// its destinations are found by their identity keys.
    var matchesIdentity: Bool {
        guard case .foreignKey = connection.rule else { return false }
        return Set(keyAttributes) == Set(destination.mapping.identity)
            && keyAttributes.count == destination.mapping.identity.count
    }

    /// For a key path: the entity on which its last segment is read (the source itself for a
    /// one-segment path); `nil` when a segment names no relationship.
    func reachedEntity(schema: GraphSchema) -> EntityType? {
        var entity = source
        for segment in through {
            guard let next = entity.mapping.relationship(named: segment).flatMap({ schema.type(named: $0.destination) })
            else { return nil }
            entity = next
        }
        return entity
    }

    /// The `(entity, relationship)` pairs a key path reads: each relationship it
    /// goes through (ending on one included), on the entity where it is met.
    func pathRelationships(schema: GraphSchema) -> [(entity: EntityType, relationship: String)] {
        guard case .keyPath(let path) = connection.rule else { return [] }
        var pairs: [(entity: EntityType, relationship: String)] = []
        var entity = source
        for segment in path {
            guard let relationship = entity.mapping.relationship(named: segment),
                let next = schema.type(named: relationship.destination)
            else { break }
            pairs.append((entity, segment))
            entity = next
        }
        return pairs
    }
}

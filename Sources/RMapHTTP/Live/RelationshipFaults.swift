import RMap

/// How a live ``Session`` follows relationships: a to-one through its foreign key, a to-many
/// loaded on first access (the destination's nested route, else a filter on the foreign key)
/// and recorded in the session's faults, and a prefetch's path one level at a time.
///
/// Its methods run on the session they are given, whose cache, store and faults they use.
///
/// ```swift
/// let projects = try await RelationshipFaults(model: session.model).related(ada, "projects", in: session)
/// ```
struct RelationshipFaults: Sendable {
    /// The model whose relationships are followed.
    let model: MappingModel

    /// The object a to-one relationship held by a foreign key points at; `nil` when the key is null.
    ///
    /// - Throws: ``LiveError`` for an unknown relationship or one not held by a foreign key.
    func relatedObject(_ object: LiveObject, _ name: String, in session: isolated Session) async throws
        -> LiveObject?
    {
        let (relationship, _) = try relationship(name, of: object.entity, kind: .toOne)
        let destination = try session.mapping(relationship.destination)
        guard case .foreignKey(let pairs) = relationship.connection?.rule else {
            throw LiveError("\(object.entity).\(name) is not held by a foreign key (connect: {foreign_key: ...})")
        }
        let identity = destination.identity.map { attribute in
            pairs.first { $0.destination == attribute }.flatMap { object.values[$0.source] } ?? .null
        }
        guard !IdentityKey(identity).isIncomplete else { return nil }
        return try await session.object(destination.name, identity: identity)
    }

    /// The objects of a to-many relationship: loaded on first access, then read from the store.
    func related(_ object: LiveObject, _ name: String, in session: isolated Session) async throws -> [LiveObject] {
        let owner = try session.key(of: object)
        let fault = FaultKey(owner: owner, relationship: name)
        if session.faults[fault] == nil { try await loadToMany(name, of: [object], in: session) }
        return try await session.read(session.faults[fault] ?? [], fresh: false)
    }

    /// Loads the relationships of `path` (`["projects", "tasks"]`) for `objects`, one level at a time,
    /// each level in as few requests as its route allows.
    func prefetch(_ path: [String], from objects: [LiveObject], in session: isolated Session) async throws {
        var level = objects
        for name in path {
            guard let entity = level.first?.entity else { return }
            let (relationship, _) = try relationship(name, of: entity, kind: nil)
            if relationship.kind == .toMany {
                let unloaded = try level.filter {
                    session.faults[FaultKey(owner: try session.key(of: $0), relationship: name)] == nil
                }
                if !unloaded.isEmpty { try await loadToMany(name, of: unloaded, in: session) }
                var next: [LiveObject] = []
                for object in level {
                    let fault = FaultKey(owner: try session.key(of: object), relationship: name)
                    next += try await session.read(session.faults[fault] ?? [], fresh: false)
                }
                level = next
            } else {
                level = try await loadToOne(relationship, of: level, in: session)
            }
        }
    }

    // MARK: - Loading

    /// The pairs (owner attribute, destination attribute) that tie a to-many relationship's objects to their owner:
    /// its own `foreign_key`, or its inverse's turned around.
    private func ownerPairs(_ relationship: RelationshipMapping, destination: EntityMapping) throws -> [(
        owner: String, child: String
    )] {
        if case .foreignKey(let pairs)? = relationship.connection?.rule {
            return pairs.map { ($0.source, $0.destination) }
        }
        if let inverse = relationship.inverse.flatMap(destination.relationship(named:)),
            case .foreignKey(let pairs)? = inverse.connection?.rule
        {
            return pairs.map { ($0.destination, $0.source) }
        }
        throw LiveError(
            "\(relationship.name) has no foreign key to follow (give it or its inverse connect: {foreign_key: ...})")
    }

    /// Loads a to-many relationship of `owners` (all of one entity) and records each owner's objects.
    ///
    /// Through the destination's per-parent route (`nested_path` or a `params`
    /// placeholder) when its parent is the owners' entity: one index a owner;
    /// otherwise one query filtering the foreign key by every owner's key.
    private func loadToMany(_ name: String, of owners: [LiveObject], in session: isolated Session) async throws {
        guard let first = owners.first else { return }
        let (relationship, ownerEntity) = try relationship(name, of: first.entity, kind: .toMany)
        let destination = try session.mapping(relationship.destination)
        let pairs = try ownerPairs(relationship, destination: destination)
        var keys: [ObjectKey]
        if let config = destination.source, config.plugin == "http",
            let link = try ParentLink.resolve(destination, params: HTTPSourceSettings(config).params, model: model),
            model.entity(ownerEntity, isKindOf: link.parent) || link.parent == ownerEntity.name
        {
            let source = try HTTPSource(config: config, model: model)
            let identities = owners.map { IdentityKey($0.identity) }
            let request =
                "\(destination.name) of \(link.parent) \(identities.map(\.description).joined(separator: ","))"
            keys = try await session.coalesced(request) { session in
                try await session.load([destination], source: source, parents: [link.parent: identities])
            }
        } else {
            guard pairs.count == 1 else {
                throw LiveError("\(ownerEntity.name).\(name) has a composite key and no nested route to load it by")
            }
            let values = owners.compactMap { $0.values[pairs[0].owner] }.filter { !$0.isNull }
            let query = try LiveQuery(
                destination, conditions: [pairs[0].child: .anyOf(values)], sort: nil, limit: nil, offset: nil,
                localOnly: [], model: model)
            let source = try HTTPSource(config: query.config, model: model)
            let url = source.url(for: query.entity, values: [:], model: model).absoluteString
            keys = try await session.coalesced(url) { session in
                try await session.load([query.entity], source: source, parents: [:])
            }
        }
        let children = try await session.read(keys, fresh: true, family: destination.name)
        var byOwner: [IdentityKey: [ObjectKey]] = [:]
        for child in children {
            let ownerValues = IdentityKey(pairs.map { child.values[$0.child] ?? .null })
            byOwner[ownerValues, default: []].append(try session.key(of: child))
        }
        for owner in owners {
            let values = IdentityKey(pairs.map { owner.values[$0.owner] ?? .null })
            session.faults[FaultKey(owner: try session.key(of: owner), relationship: name)] = byOwner[values] ?? []
        }
    }

    /// The objects a to-one relationship of `owners` points at: those not stored yet in one query by identity.
    private func loadToOne(_ relationship: RelationshipMapping, of owners: [LiveObject], in session: isolated Session)
        async throws -> [LiveObject]
    {
        let destination = try session.mapping(relationship.destination)
        guard case .foreignKey(let pairs) = relationship.connection?.rule, destination.identity.count == 1,
            let pair = pairs.first(where: { $0.destination == destination.identity[0] })
        else {
            var objects: [LiveObject] = []
            for owner in owners {
                if let object = try await relatedObject(owner, relationship.name, in: session) {
                    objects.append(object)
                }
            }
            return objects
        }
        let root = model.root(of: destination).name
        let keys = owners.compactMap { $0.values[pair.source] }.filter { !$0.isNull }.map {
            ObjectKey(root: root, identity: IdentityKey([$0]))
        }
        let stored = try await session.read(keys, fresh: false)
        let known = Set(stored.map { IdentityKey($0.identity) })
        let missing = keys.map(\.identity).filter { !known.contains($0) }.map { $0.values[0] }
        guard !missing.isEmpty else { return stored }
        return stored
            + (try await session.fetch(destination.name, where: [destination.identity[0]: .anyOf(missing)]))
    }

    private func relationship(_ name: String, of entity: String, kind: RelationshipMapping.Kind?) throws -> (
        RelationshipMapping, EntityMapping
    ) {
        guard let mapping = model.entity(named: entity) else { throw LiveError.unknownEntity(entity, in: model) }
        guard let relationship = mapping.relationship(named: name) else {
            throw LiveError.unknownRelationship(name, of: mapping)
        }
        if let kind, relationship.kind != kind {
            let wanted = kind == .toMany ? "to-many (use relatedObject)" : "to-one (use related)"
            throw LiveError("\(entity).\(name) is not \(wanted)")
        }
        return (relationship, mapping)
    }
}

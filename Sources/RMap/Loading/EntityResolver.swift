/// Resolves declared entities into ``EntityMapping``s: duplicates, `extends`
/// chains and cycles, inherited attributes and identity, and the names of
/// MAPPING.md §2 (element, collection, path).
struct EntityResolver {
    let diagnostics: Diagnostics
    let inflector: Inflector

    /// The entities in declaration order, each with its parent's attributes, identity and relationships' nodes.
    func resolve(_ declared: [DeclaredEntity]) -> [DeclaredEntity] {
        var byName: [String: DeclaredEntity] = [:]
        var order: [String] = []
        for entity in declared {
            if let first = byName[entity.name] {
                diagnostics.error(
                    entity.mark, "entity '\(entity.name)' is defined twice: here and at \(first.mark)")
                continue
            }
            byName[entity.name] = entity
            order.append(entity.name)
        }
        checkParents(byName)
        var resolved: [String: DeclaredEntity] = [:]
        for name in order { inherit(name, byName, &resolved, visiting: []) }
        return order.compactMap { resolved[$0] }
    }

    private func checkParents(_ byName: [String: DeclaredEntity]) {
        for entity in byName.values {
            guard let (parent, mark) = entity.extends else { continue }
            if byName[parent] == nil {
                diagnostics.error(
                    mark,
                    "entity '\(entity.name)' extends unknown entity '\(parent)'"
                        + Suggestion.hint(for: parent, in: byName.keys))
            }
        }
    }

    /// Resolves `name` after its parent; an `extends` cycle is reported once, at the entity that closes it.
    private func inherit(
        _ name: String, _ byName: [String: DeclaredEntity], _ resolved: inout [String: DeclaredEntity],
        visiting: [String]
    ) {
        guard resolved[name] == nil, var entity = byName[name] else { return }
        if let (parentName, _) = entity.extends, byName[parentName] == nil { entity.incomplete = true }
        let path = visiting + [name]
        if let (parentName, mark) = entity.extends, byName[parentName] != nil {
            if let start = path.firstIndex(of: parentName) {
                let cycle = (path[start...] + [parentName]).joined(separator: " -> ")
                diagnostics.error(mark, "'extends' cycle: \(cycle)")
                entity.extends = nil
            } else {
                inherit(parentName, byName, &resolved, visiting: path)
                if let parent = resolved[parentName] { entity = merged(entity, into: parent) }
            }
        }
        if entity.extends == nil || entity.incomplete, entity.identity == nil {
            // A root's identity, inferred from its attribute names; sub-entities take their root's.
            entity.inferredIdentity = IdentityInference.attribute(
                element: element(of: entity), attributes: entity.attributes, inflector: inflector)
        }
        resolved[name] = entity
    }

    private func merged(_ child: DeclaredEntity, into parent: DeclaredEntity) -> DeclaredEntity {
        var entity = child
        let own = Set(child.attributes.map(\.name))
        entity.attributes = parent.attributes.filter { !own.contains($0.name) } + child.attributes
        let ownRelationships = Set(child.relationships.map(\.name))
        entity.relationships = parent.relationships.filter { !ownRelationships.contains($0.name) } + child.relationships
        entity.identity = child.identity ?? parent.identity
        if child.identity == nil { entity.inferredIdentity = parent.inferredIdentity }
        entity.records = child.records ?? parent.records
        entity.typeKey = child.typeKey ?? parent.typeKey
        entity.pushMethod = child.pushMethod ?? parent.pushMethod
        entity.idempotencyHeader = child.idempotencyHeader ?? parent.idempotencyHeader
        entity.onConflict = child.onConflict ?? parent.onConflict
        entity.orphans = child.orphans ?? parent.orphans
        entity.modifiedBy = child.modifiedBy ?? parent.modifiedBy
        entity.deleteWhen = child.deleteWhen ?? parent.deleteWhen
        entity.recordsKeyAs = child.recordsKeyAs ?? parent.recordsKeyAs
        entity.unknownType = child.unknownType ?? parent.unknownType
        return entity
    }

    // MARK: - Names

    /// The mapping with names resolved; relationships are added later.
    func mapping(for entity: DeclaredEntity) -> EntityMapping {
        let element = element(of: entity)
        let collection = entity.collection ?? inflector.pluralize(element)
        let identity = entity.identity?.names ?? entity.inferredIdentity.map { [$0] } ?? []
        var mapping = EntityMapping(
            name: entity.name, element: element, collection: collection, path: entity.path ?? collection,
            identity: identity, file: entity.settings.path, mark: entity.mark)
        mapping.records = entity.records
        mapping.recordsKeyAs = entity.recordsKeyAs?.name
        // A sub-entity arrives in its parent's payloads unless it names a source of its own.
        mapping.source = entity.source ?? (entity.extends == nil ? entity.settings.source : nil)
        mapping.nestedOnly = entity.source == .some(nil)
        mapping.parent = entity.extends?.name
        mapping.identityInferred = entity.identity == nil && !identity.isEmpty
        mapping.typeKey = entity.typeKey
        mapping.nestedPath = entity.nestedPath?.path
        mapping.sort = entity.sort.map(\.key)
        mapping.pushMethod = entity.pushMethod ?? .put
        mapping.idempotencyHeader = entity.idempotencyHeader ?? "Idempotency-Key"
        mapping.onConflict = entity.onConflict ?? .fail
        mapping.orphans = entity.orphans ?? .keep
        mapping.modifiedBy = entity.modifiedBy?.name
        mapping.incremental = entity.incremental?.sync
        mapping.root = entity.settings.root
        mapping.attributes = entity.attributes
        mapping.stream = entity.stream
        mapping.unknownType = entity.unknownType?.policy ?? .reject
        mapping.query = entity.query
        SingerKey.addIdentity(to: &mapping)
        return mapping
    }

    /// The element name: declared, or the default.
    private func element(of entity: DeclaredEntity) -> String {
        entity.element ?? defaultElement(entity.name, prefix: entity.settings.entityPrefix)
    }

    /// `underscore(singularize(name minus prefix))`: `CRMPerson` with prefix `CRM` -> `person`.
    func defaultElement(_ name: String, prefix: String) -> String {
        let stem =
            !prefix.isEmpty && name.hasPrefix(prefix) && name.count > prefix.count
            ? String(name.dropFirst(prefix.count)) : name
        return inflector.underscore(inflector.singularize(stem))
    }
}

/// The checks that need the whole model: identities, type maps, sort keys,
/// nested paths, inverses, key-path cycles, shared file paths and the keys that
/// only make sense together (`default_on_missing`, `ordered`, `orphans`). Also fills
/// what follows from the whole model (reciprocal inverses, default type maps).
struct ModelChecks {
    let diagnostics: Diagnostics
    let declared: [DeclaredEntity]
    let inflector: Inflector

    func run(_ entities: inout [EntityMapping]) -> [EntityMapping] {
        for (index, declaration) in declared.enumerated() {
            checkIdentity(entities[index], declaration)
            checkSort(entities[index], declaration)
            checkModifiedBy(entities[index], declaration)
            checkIncremental(entities[index], declaration)
            checkNestedPath(entities[index], declaration)
            checkCombinations(entities[index], declaration)
            entities[index].types = types(for: entities[index], declaration, entities)
        }
        linkInverses(&entities)
        JSONAPIRelationships(diagnostics: diagnostics, declared: declared, inflector: inflector).connect(&entities)
        NestedChecks(diagnostics: diagnostics).check(entities)
        checkFilled(entities)
        KeyPathCycles(diagnostics: diagnostics).check(entities)
        checkSharedFiles(entities)
        return entities
    }

    private func checkIdentity(_ entity: EntityMapping, _ declaration: DeclaredEntity) {
        guard let (names, mark) = declaration.identity else {
            if entity.identity.isEmpty, !declaration.incomplete {
                diagnostics.error(
                    entity.mark, "entity '\(entity.name)' has no identity: add an 'id' attribute or declare 'identity:'"
                )
            }
            return
        }
        for name in names where entity.attribute(named: name) == nil {
            diagnostics.error(
                mark,
                "identity attribute '\(name)' does not exist on '\(entity.name)'"
                    + Suggestion.hint(for: name, in: entity.attributes.map(\.name)))
        }
    }

    private func checkSort(_ entity: EntityMapping, _ declaration: DeclaredEntity) {
        for (key, mark) in declaration.sort where entity.attribute(named: key.attribute) == nil {
            diagnostics.error(
                mark,
                "unknown attribute '\(key.attribute)' in 'sort' of '\(entity.name)'"
                    + Suggestion.hint(for: key.attribute, in: entity.attributes.map(\.name)))
        }
    }

    /// `modified_by` names an attribute whose values have an order: a number, a date, a date-time or a string.
    private func checkModifiedBy(_ entity: EntityMapping, _ declaration: DeclaredEntity) {
        guard let (name, mark) = declaration.modifiedBy else { return }
        guard let attribute = entity.attribute(named: name) else {
            diagnostics.error(
                mark,
                "unknown attribute '\(name)' in 'modified_by' of '\(entity.name)'"
                    + Suggestion.hint(for: name, in: entity.attributes.map(\.name)))
            return
        }
        let ordered: [AttributeType] = [.int, .double, .decimal, .date, .datetime, .string]
        if !ordered.contains(attribute.type) {
            diagnostics.error(
                mark,
                "'modified_by' of '\(entity.name)' needs an attribute of type int, double, decimal, date, datetime or string: '\(name)' is \(attribute.type)"
            )
        }
    }

    private func checkIncremental(_ entity: EntityMapping, _ declaration: DeclaredEntity) {
        guard let (sync, mark) = declaration.incremental else { return }
        guard let attribute = entity.attribute(named: sync.cursor) else {
            diagnostics.error(
                mark,
                "unknown attribute '\(sync.cursor)' in 'incremental' of '\(entity.name)'"
                    + Suggestion.hint(for: sync.cursor, in: entity.attributes.map(\.name)))
            return
        }
        let dated = attribute.type == .date || attribute.type == .datetime
        if !dated, sync.lag > 0 || sync.format != nil {
            diagnostics.error(
                mark,
                "'lag' and 'format' of 'incremental' need a date or datetime cursor; '\(sync.cursor)' of '\(entity.name)' is \(attribute.type)"
            )
        }
    }

    private func checkNestedPath(_ entity: EntityMapping, _ declaration: DeclaredEntity) {
        guard let (path, mark) = declaration.nestedPath else { return }
        let placeholders = NestedPath.placeholders(in: path)
        if placeholders.isEmpty {
            diagnostics.error(mark, "'nested_path' needs a placeholder such as {personId} for the parent's identity")
        }
        for name in placeholders {
            guard let attribute = entity.attribute(named: name) else {
                diagnostics.error(
                    mark,
                    "unknown attribute '\(name)' in 'nested_path' of '\(entity.name)'"
                        + Suggestion.hint(for: name, in: entity.attributes.map(\.name)))
                continue
            }
            let connected = entity.relationships.contains { relationship in
                guard case .foreignKey(let pairs) = relationship.connection?.rule else { return false }
                return relationship.kind == .toOne && pairs.contains { $0.source == attribute.name }
            }
            if !connected {
                diagnostics.error(
                    mark,
                    "'nested_path' placeholder '{\(name)}' must be the foreign key of a to-one relationship of '\(entity.name)'"
                )
            }
        }
    }

    /// Keys that need another: `default_on_missing` a `default`, `ordered` a replaced to-many.
    private func checkCombinations(_ entity: EntityMapping, _ declaration: DeclaredEntity) {
        for attribute in entity.attributes where attribute.defaultOnMissing && attribute.defaultValue == nil {
            diagnostics.error(
                attribute.mark, "'default_on_missing' of attribute '\(attribute.name)' needs a 'default' to apply")
        }
        for relationship in entity.relationships where relationship.ordered {
            if relationship.kind != .toMany {
                diagnostics.error(
                    relationship.mark, "'ordered' applies to to-many relationships, not to-one '\(relationship.name)'")
            } else if relationship.assignment == .union {
                diagnostics.error(
                    relationship.mark,
                    "'ordered' needs 'assignment: replace' on '\(relationship.name)': a union has no payload order")
            }
        }
    }

    /// Declared `types:` checked, plus each family member under its name without the prefix (Rails' STI `type`).
    private func types(
        for entity: EntityMapping, _ declaration: DeclaredEntity, _ entities: [EntityMapping]
    ) -> [String: String] {
        guard entity.typeKey != nil else { return [:] }
        let model = MappingModel(entities: entities)
        var types: [String: String] = [:]
        for member in model.family(of: entity.name) {
            let prefix = declared.first { $0.name == member.name }?.settings.entityPrefix ?? ""
            let stem =
                !prefix.isEmpty && member.name.hasPrefix(prefix)
                ? String(member.name.dropFirst(prefix.count)) : member.name
            types[stem] = member.name
        }
        for (value, target, mark) in declaration.types {
            guard let destination = model.entity(named: target) else {
                diagnostics.error(
                    mark,
                    "unknown entity '\(target)' for type '\(value)'"
                        + Suggestion.hint(for: target, in: entities.map(\.name)))
                continue
            }
            if !model.entity(destination, isKindOf: entity.name) {
                diagnostics.error(mark, "entity '\(target)' for type '\(value)' does not extend '\(entity.name)'")
            }
            types[value] = target
        }
        return types
    }

    /// Checks declared inverses and fills the reciprocal side where only one side names it.
    private func linkInverses(_ entities: inout [EntityMapping]) {
        let index = Dictionary(entities.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        for sourceIndex in entities.indices {
            for relationshipIndex in entities[sourceIndex].relationships.indices {
                let relationship = entities[sourceIndex].relationships[relationshipIndex]
                guard let inverse = relationship.inverse, let destinationIndex = index[relationship.destination] else {
                    continue
                }
                let destination = entities[destinationIndex]
                guard let other = destination.relationships.firstIndex(where: { $0.name == inverse }) else {
                    diagnostics.error(
                        relationship.mark,
                        "inverse '\(inverse)' of '\(entities[sourceIndex].name).\(relationship.name)' does not exist on '\(destination.name)'"
                            + Suggestion.hint(for: inverse, in: destination.relationships.map(\.name)))
                    continue
                }
                let back = destination.relationships[other]
                if let declared = back.inverse, declared != relationship.name {
                    diagnostics.error(
                        relationship.mark,
                        "'\(entities[sourceIndex].name).\(relationship.name)' and '\(destination.name).\(inverse)' name different inverses"
                    )
                } else if back.inverse == nil {
                    entities[destinationIndex].relationships[other].inverse = relationship.name
                }
            }
        }
    }

    /// Reports relationships that neither payloads nor connections fill, directly or through their inverse.
    private func checkFilled(_ entities: [EntityMapping]) {
        let model = MappingModel(entities: entities)
        // A relationship with a `connect:` is filled (or its connect's problem was reported there).
        let connected = Set(
            declared.flatMap { entity in
                entity.relationships.filter { $0.node["connect"] != nil }.map { "\(entity.name).\($0.name)" }
            })
        func fills(_ entity: String, _ relationship: RelationshipMapping) -> Bool {
            relationship.nested || relationship.connection != nil
                || connected.contains("\(entity).\(relationship.name)")
        }
        for entity in entities {
            for relationship in entity.relationships where !fills(entity.name, relationship) {
                let name = "\(entity.name).\(relationship.name)"
                guard let inverse = relationship.inverse else {
                    diagnostics.error(
                        relationship.mark,
                        "relationship '\(name)' is neither nested, connected nor an inverse: nothing would fill it")
                    continue
                }
                if let back = model.entity(named: relationship.destination)?.relationship(named: inverse),
                    !fills(relationship.destination, back)
                {
                    diagnostics.error(
                        relationship.mark,
                        "relationship '\(name)' and its inverse '\(relationship.destination).\(inverse)' are neither nested nor connected: nothing would fill them"
                    )
                }
            }
        }
    }

    /// A fixed `file` path (without `{collection}` or `{element}`) shared by entities of different roots.
    private func checkSharedFiles(_ entities: [EntityMapping]) {
        let model = MappingModel(entities: entities)
        var owners: [String: EntityMapping] = [:]
        for entity in entities {
            guard let source = entity.source, source.plugin == "file", let path = source["path"]?.scalar?.text,
                !path.contains("{collection}"), !path.contains("{element}")
            else { continue }
            let resolved = source.resolvePath(path)
            if let owner = owners[resolved], model.root(of: owner).name != model.root(of: entity).name {
                diagnostics.error(
                    source.mark,
                    "'\(entity.name)' and '\(owner.name)' share the fixed file path '\(path)': use {collection} in the path, or give one of them its own source"
                )
            } else {
                owners[resolved] = entity
            }
        }
    }
}

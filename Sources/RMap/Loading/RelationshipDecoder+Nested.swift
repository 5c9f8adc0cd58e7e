extension RelationshipDecoder {
    /// An embedded relationship: a to-one without `nested`, `key` or `connect`, whose destination is
    /// identified as its source is (the same number of identity attributes, of the same types), since
    /// the object it builds takes its parent's identity.
    func checkEmbedded(
        _ relationship: RelationshipMapping, _ pairs: [(String, YAMLNode)], what: String, source: EntityMapping,
        destination: EntityMapping
    ) {
        guard relationship.kind == .toOne else {
            diagnostics.error(
                relationship.mark,
                "'embedded' applies to to-one relationships: \(what) is a to-many, and a record's own keys hold one object"
            )
            return
        }
        for (key, value) in pairs where ["nested", "key", "connect"].contains(key) {
            diagnostics.error(
                value.mark, "\(what) is embedded: it reads the record's own keys, so it takes no '\(key)'")
        }
        let sourceTypes = identityTypes(of: source)
        let destinationTypes = identityTypes(of: destination)
        guard !sourceTypes.isEmpty, !destinationTypes.isEmpty, sourceTypes.map(\.1) != destinationTypes.map(\.1)
        else { return }
        func described(_ types: [(String, AttributeType)]) -> String {
            types.map { "\($0.0): \($0.1)" }.joined(separator: ", ")
        }
        diagnostics.error(
            relationship.mark,
            "embedded \(what) gives '\(destination.name)' the identity of '\(source.name)' (\(described(sourceTypes))), but '\(destination.name)' is identified by \(described(destinationTypes))"
        )
    }

    private func identityTypes(of entity: EntityMapping) -> [(String, AttributeType)] {
        entity.identity.compactMap { name in entity.attribute(named: name).map { (name, $0.type) } }
    }

    /// `missing: nullify` applies to a nested relationship (not embedded: its keys are the record's
    /// own) whose payload replaces it; on a union it would change nothing, as RestKit notes.
    func checkMissing(_ relationship: RelationshipMapping, at mark: Mark, what: String) {
        guard relationship.missing == .nullify else { return }
        if !relationship.nested || relationship.embedded {
            diagnostics.error(
                mark,
                "'missing: nullify' applies to nested relationships: \(what) is \(relationship.embedded ? "embedded" : "not nested"), so no record holds its key"
            )
        } else if relationship.assignment == .union {
            diagnostics.error(
                mark,
                "'missing: nullify' has no effect on \(what) with 'assignment: union': a union never removes members")
        }
    }

    /// `identify_nested_by_parent_key`: `true` (the inverse to-one's foreign key, checked once inverses
    /// are known) or `{child attribute: parent attribute}`.
    func parentKey(_ node: YAMLNode, source: EntityMapping, destination: EntityMapping) -> ParentKey? {
        if let flag = node.scalar?.bool { return flag ? .inverse : nil }
        if node.mapping?.isEmpty == true {
            diagnostics.error(node.mark, "'identify_nested_by_parent_key' names no attribute")
            return nil
        }
        guard node.mapping != nil else {
            diagnostics.error(
                node.mark,
                "'identify_nested_by_parent_key' must be true or a mapping {child attribute: parent attribute}, found \(diagnostics.describe(node))"
            )
            return nil
        }
        var pairs: [ForeignKeyPair] = []
        for pair in diagnostics.uniquePairs(node, "'identify_nested_by_parent_key'") ?? [] {
            guard let child = pair.key.scalar?.text,
                let parent = diagnostics.string(pair.value, "the parent attribute of '\(child)'")
            else { continue }
            diagnostics.checkAttribute(child, on: destination, in: "'identify_nested_by_parent_key'", at: pair.key.mark)
            diagnostics.checkAttribute(parent, on: source, in: "'identify_nested_by_parent_key'", at: pair.value.mark)
            pairs.append(ForeignKeyPair(source: child, destination: parent, mark: pair.key.mark))
        }
        return pairs.isEmpty ? nil : .pairs(pairs)
    }
}

/// Decodes relationships and their connections once every entity's attributes are known.
struct RelationshipDecoder {
    let diagnostics: Diagnostics
    let entities: [String: EntityMapping]
    let inflector: Inflector

    static let keys = [
        "to_one", "to_many", "inverse", "nested", "key", "assignment", "ordered", "connect", "embedded",
        "identify_nested_by_parent_key", "missing",
    ]
    static let connectKeys = ["foreign_key", "key_path", "include_subentities", "when", "where"]

    func decode(
        _ name: String, _ node: YAMLNode, mark: Mark, source: EntityMapping, naming: FileSettings.AttributeNaming
    ) -> RelationshipMapping? {
        let what = "relationship '\(name)' of '\(source.name)'"
        guard let pairs = diagnostics.keyedPairs(node, what, allowed: Self.keys) else { return nil }
        let kinds = pairs.filter { $0.0 == "to_one" || $0.0 == "to_many" }
        guard kinds.count == 1, let (kindKey, destinationNode) = kinds.first else {
            if !Self.misspells(node, pairs, ["to_one", "to_many"]) {
                diagnostics.error(node.mark, "\(what) needs exactly one of 'to_one' or 'to_many'")
            }
            return nil
        }
        guard let destinationName = diagnostics.string(destinationNode, "'\(kindKey)'") else { return nil }
        guard let destination = entities[destinationName] else {
            diagnostics.error(
                destinationNode.mark,
                "\(what) points to unknown entity '\(destinationName)'"
                    + Suggestion.hint(for: destinationName, in: entities.keys))
            // Still report the connect block's unknown keys: validate shows every problem in one pass.
            if let connect = node["connect"] {
                _ = diagnostics.keyedPairs(connect, "connect", allowed: Self.connectKeys)
            }
            return nil
        }
        let key = EntityDecoder.payloadKey(for: name, naming: naming, inflector: inflector)
        var relationship = RelationshipMapping(
            name: name, kind: kindKey == "to_one" ? .toOne : .toMany, destination: destinationName, keyPath: [key],
            mark: mark)
        for (key, value) in pairs {
            switch key {
            case "inverse": relationship.inverse = diagnostics.string(value, "'inverse'")
            case "nested": relationship.nested = diagnostics.bool(value, "'nested'") ?? false
            case "ordered": relationship.ordered = diagnostics.bool(value, "'ordered'") ?? false
            case "key":
                relationship.keyPath =
                    diagnostics.payloadKeyPath(
                        value, of: what,
                        empty: " (to build '\(destinationName)' from the record's own keys, write 'embedded: true')")
                    ?? [key]
            case "assignment":
                relationship.assignment =
                    diagnostics.choice(value, "'assignment'", as: RelationshipMapping.Assignment.self) ?? .replace
                if relationship.kind == .toOne, relationship.assignment == .union {
                    diagnostics.error(
                        value.mark,
                        "'assignment: union' applies to to-many relationships: to-one \(what) holds one object, which a payload replaces"
                    )
                }
            case "embedded": relationship.embedded = diagnostics.bool(value, "'embedded'") ?? false
            case "missing":
                relationship.missing =
                    diagnostics.choice(value, "'missing'", as: RelationshipMapping.Missing.self) ?? .keep
            case "identify_nested_by_parent_key":
                relationship.parentKey = parentKey(value, source: source, destination: destination)
            case "connect":
                relationship.connection = connection(value, what: what, source: source, destination: destination)
            default: break
            }
        }
        if relationship.embedded {
            checkEmbedded(relationship, pairs, what: what, source: source, destination: destination)
            relationship.nested = true
        } else if relationship.nested, relationship.connection != nil {
            diagnostics.error(node.mark, "\(what) is nested, so it takes no 'connect'")
        }
        if let (_, value) = pairs.first(where: { $0.0 == "missing" }) {
            checkMissing(relationship, at: value.mark, what: what)
        }
        if let (_, value) = pairs.first(where: { $0.0 == "identify_nested_by_parent_key" }),
            relationship.parentKey != nil, !relationship.nested || relationship.embedded
        {
            diagnostics.error(
                value.mark,
                relationship.embedded
                    ? "\(what) is embedded: its identity is the parent's already, so it takes no 'identify_nested_by_parent_key'"
                    : "'identify_nested_by_parent_key' applies to nested relationships: only a nested record has a parent"
            )
        }
        return relationship
    }

    // MARK: - Connections

    private func connection(
        _ node: YAMLNode, what: String, source: EntityMapping, destination: EntityMapping
    ) -> Connection? {
        guard let pairs = diagnostics.keyedPairs(node, "connect", allowed: Self.connectKeys) else { return nil }
        let rules = pairs.filter { $0.0 == "foreign_key" || $0.0 == "key_path" }
        guard rules.count == 1, let (ruleKey, ruleNode) = rules.first else {
            if !Self.misspells(node, pairs, ["foreign_key", "key_path"]) {
                diagnostics.error(node.mark, "connect of \(what) needs exactly one of 'foreign_key' or 'key_path'")
            }
            return nil
        }
        let rule: Connection.Rule
        if ruleKey == "foreign_key" {
            var foreignKeys: [ForeignKeyPair] = []
            for pair in diagnostics.uniquePairs(ruleNode, "'foreign_key'") ?? [] {
                guard let sourceName = pair.key.scalar?.text,
                    let destinationName = diagnostics.string(pair.value, "the destination attribute of '\(sourceName)'")
                else { continue }
                diagnostics.checkAttribute(sourceName, on: source, in: "'foreign_key'", at: pair.key.mark)
                diagnostics.checkAttribute(destinationName, on: destination, in: "'foreign_key'", at: pair.value.mark)
                foreignKeys.append(
                    ForeignKeyPair(source: sourceName, destination: destinationName, mark: pair.key.mark))
            }
            guard !foreignKeys.isEmpty else {
                diagnostics.error(ruleNode.mark, "'foreign_key' needs at least one 'source: destination' pair")
                return nil
            }
            rule = .foreignKey(foreignKeys)
        } else {
            guard let text = diagnostics.string(ruleNode, "'key_path'") else { return nil }
            let path = EntityDecoder.keyPath(text)
            checkKeyPath(path, from: source, at: ruleNode.mark)
            rule = .keyPath(path)
        }
        var connection = Connection(rule: rule, mark: node.mark)
        let predicates = PredicateDecoder(diagnostics: diagnostics)
        for (key, value) in pairs {
            switch key {
            case "include_subentities":
                connection.includeSubentities = diagnostics.bool(value, "'include_subentities'") ?? true
            case "when": connection.sourcePredicate = predicates.predicate(value, on: source, what: "'when'")
            case "where":
                connection.destinationPredicate = predicates.predicate(value, on: destination, what: "'where'")
            default: break
            }
        }
        return connection
    }

    /// True when `node` has a rejected key (already reported as unknown) that misspells one of
    /// `words`: the missing-key message would only repeat that report.
    private static func misspells(_ node: YAMLNode, _ accepted: [(String, YAMLNode)], _ words: [String]) -> Bool {
        let keys = Set(accepted.map(\.0))
        return (node.mapping ?? []).contains { pair in
            guard let key = pair.key.scalar?.text, !keys.contains(key) else { return false }
            return Suggestion.closest(to: key, in: words) != nil
        }
    }

    /// Checks each segment: relationships lead on to their destination; an attribute must come last.
    private func checkKeyPath(_ path: [String], from source: EntityMapping, at mark: Mark) {
        var entity = source
        for (offset, segment) in path.enumerated() {
            if entity.attribute(named: segment) != nil {
                if offset < path.count - 1 {
                    diagnostics.error(
                        mark, "key path '\(path.joined(separator: "."))' goes on past attribute '\(segment)'")
                }
                return
            }
            let relationships = relationshipNames(of: entity)
            guard let next = relationships[segment].flatMap({ entities[$0] }) else {
                diagnostics.error(
                    mark,
                    "unknown attribute or relationship '\(segment)' on '\(entity.name)' in key path '\(path.joined(separator: "."))'"
                        + Suggestion.hint(for: segment, in: entity.attributes.map(\.name) + relationships.keys))
                return
            }
            entity = next
        }
    }

    /// Relationship name -> destination, read from the declarations (relationships are not decoded yet).
    var relationshipNodes: [String: [String: String]] = [:]

    private func relationshipNames(of entity: EntityMapping) -> [String: String] {
        relationshipNodes[entity.name] ?? [:]
    }
}

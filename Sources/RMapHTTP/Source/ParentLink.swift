import RMap

/// How a child entity's requests depend on a parent entity's objects: the
/// child is fetched once per parent identity, with placeholders in its
/// `nested_path` or `params` filled from that identity.
///
/// - `nested_path: people/{personId}/projects`: `{personId}` is the child's
///   attribute; the parent is the destination of the child's to-one
///   relationship whose foreign key has `personId` as its source, and the
///   value is the parent's attribute on the other side of the pair.
/// - `params: {person_id: "{id}"}` (ActiveResource's `has_many`): the
///   parameter name is the child's foreign-key attribute (by JSON key, column
///   or name); the parent is that relationship's destination, and `{id}` names
///   the parent's attribute.
///
/// Either way the pair's parent attribute must be one of the parent's identity
/// attributes, and each record gets the child's foreign-key attribute filled
/// (``Payload/fill``) when the payload lacks it.
struct ParentLink: Sendable {
    /// The parent entity.
    var parent: String
    /// Placeholder name -> index in the parent's identity.
    var placeholders: [String: Int]
    /// The child's foreign-key attribute -> index in the parent's identity.
    var fills: [String: Int]

    /// The link of `entity`, or `nil` when it is fetched once (no placeholders).
    ///
    /// - Throws: ``PluginError`` when a placeholder cannot be tied to a parent identity.
    static func resolve(
        _ entity: EntityMapping, params: [HTTPSourceSettings.Param], model: MappingModel
    ) throws(PluginError) -> ParentLink? {
        var links: [ParentLink] = []
        if let path = entity.nestedPath, !Template.placeholders(in: path).isEmpty {
            links.append(try nestedPathLink(entity, path: path, model: model))
        }
        for param in params {
            let names = param.values.flatMap(Template.placeholders(in:))
            if !names.isEmpty { links.append(try paramLink(entity, param: param, names: names, model: model)) }
        }
        guard var link = links.first else { return nil }
        for other in links.dropFirst() {
            guard other.parent == link.parent else {
                throw PluginError.invalidOptions(
                    "http source: '\(entity.name)' is fetched per parent of two entities, '\(link.parent)' and '\(other.parent)'; a nested fetch has one parent",
                    at: entity.mark)
            }
            link.placeholders.merge(other.placeholders) { first, _ in first }
            link.fills.merge(other.fills) { first, _ in first }
        }
        return link
    }

    /// The values that fill `identity`'s placeholders, as text and as typed fills.
    func values(for identity: IdentityKey) -> (text: [String: String], fill: [String: Value]) {
        let text = placeholders.compactMapValues { index in
            identity.values.indices.contains(index) ? IdentityKey([identity.values[index]]).description : nil
        }
        let fill = fills.compactMapValues { index in
            identity.values.indices.contains(index) ? identity.values[index] : nil
        }
        return (text, fill)
    }

    // MARK: - Resolution

    private static func nestedPathLink(
        _ entity: EntityMapping, path: String, model: MappingModel
    ) throws(PluginError) -> ParentLink {
        var parent: EntityMapping?
        var link = ParentLink(parent: "", placeholders: [:], fills: [:])
        for name in Template.placeholders(in: path) {
            guard let (relationship, pair) = foreignKey(of: entity, where: { $0.source == name }) else {
                throw PluginError.invalidOptions(
                    "http source: 'nested_path' placeholder '{\(name)}' of '\(entity.name)' must be the foreign key of a to-one relationship",
                    at: entity.mark)
            }
            let destination = try parentEntity(relationship, of: entity, known: parent, model: model)
            parent = destination
            let index = try identityIndex(
                of: pair.destination, in: destination, for: entity, what: "'nested_path' placeholder '{\(name)}'")
            link.parent = destination.name
            link.placeholders[name] = index
            link.fills[pair.source] = index
        }
        return link
    }

    private static func paramLink(
        _ entity: EntityMapping, param: HTTPSourceSettings.Param, names: [String], model: MappingModel
    ) throws(PluginError) -> ParentLink {
        let column = entity.attributes.first { [$0.key, $0.column, $0.name].contains(param.name) }
        guard let column,
            let (relationship, pair) = foreignKey(of: entity, where: { $0.source == column.name })
        else {
            throw PluginError.invalidOptions(
                "http source: parameter '\(param.name)' of '\(entity.name)' uses a placeholder, so it must name the foreign key of one of its to-one relationships (e.g. person_id: \"{id}\")",
                at: entity.mark)
        }
        let destination = try parentEntity(relationship, of: entity, known: nil, model: model)
        var link = ParentLink(parent: destination.name, placeholders: [:], fills: [:])
        for name in names {
            link.placeholders[name] = try identityIndex(
                of: name, in: destination, for: entity, what: "parameter '\(param.name)' placeholder '{\(name)}'")
        }
        link.fills[pair.source] = try identityIndex(
            of: pair.destination, in: destination, for: entity, what: "parameter '\(param.name)'")
        return link
    }

    private static func foreignKey(
        of entity: EntityMapping, where matches: (ForeignKeyPair) -> Bool
    ) -> (RelationshipMapping, ForeignKeyPair)? {
        for relationship in entity.relationships where relationship.kind == .toOne {
            guard case .foreignKey(let pairs) = relationship.connection?.rule else { continue }
            if let pair = pairs.first(where: matches) { return (relationship, pair) }
        }
        return nil
    }

    private static func parentEntity(
        _ relationship: RelationshipMapping, of entity: EntityMapping, known: EntityMapping?, model: MappingModel
    ) throws(PluginError) -> EntityMapping {
        guard let destination = model.entity(named: relationship.destination) else {
            throw PluginError.invalidOptions(
                "http source: unknown entity '\(relationship.destination)'", at: relationship.mark)
        }
        if let known, known.name != destination.name {
            throw PluginError.invalidOptions(
                "http source: the placeholders of '\(entity.name)' point to two parents, '\(known.name)' and '\(destination.name)'; a nested fetch has one parent",
                at: entity.mark)
        }
        return destination
    }

    private static func identityIndex(
        of attribute: String, in parent: EntityMapping, for entity: EntityMapping, what: String
    ) throws(PluginError) -> Int {
        guard let index = parent.identity.firstIndex(of: attribute) else {
            throw PluginError.invalidOptions(
                "http source: \(what) of '\(entity.name)' needs '\(attribute)', which is not an identity attribute of '\(parent.name)' (identity: \(parent.identity.joined(separator: ", ")))",
                at: entity.mark)
        }
        return index
    }
}

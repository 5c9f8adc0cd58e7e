/// The model part of JSON:API (MAPPING.md §9): for the entities of a source with
/// `format: jsonapi`, the resource type, and for each relationship that linkage connects,
/// hidden attributes holding the linkage with a foreign-key connection on them.
///
/// What it adds to an entity (``EntityMapping/jsonAPI``, ``JSONAPIResource``):
///
/// - to-one `owner`: attribute `ownerId` (the destination identity's type, column `owner_id`,
///   key path `owner.id`) and `connect: {foreign_key: {ownerId: <destination identity>}}`;
/// - to-many `teamMembers`: attribute `teamMemberIds` (`[type]`, column `team_member_ids`, key
///   path `team-members.ids` under the member's name) and the same connection, which connects
///   every id listed;
/// - a destination with sub-entities (polymorphic linkage) also gets `ownerType` /
///   `teamMemberTypes` (`string` / `[string]`): the identities of one root are unique, so the
///   id connects, and the type goes back in pushes.
///
/// An attribute read from the resource's `meta` (`key: meta.rank`) is `readonly`: `meta` is
/// the server's to write.
///
/// A relationship is connected this way when it has neither `connect:` nor `nested:` and is
/// not the inverse of one that is: of two inverses both left to linkage, the to-one side is
/// connected (its linkage comes with every resource on that side), and of two of one kind the
/// first by root entity and name. A relationship whose linkage a resource leaves out (links
/// only) leaves its hidden keys absent, so the stored link stays: a missing key keeps.
struct JSONAPIRelationships {
    let diagnostics: Diagnostics
    let declared: [DeclaredEntity]
    let inflector: Inflector

    /// Adds the resources, hidden attributes and connections to `entities` (parallel to ``declared``).
    func connect(_ entities: inout [EntityMapping]) {
        let positions = Dictionary(entities.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        var homes = declared.map { Self.home(of: $0).flatMap { Self.isJSONAPI($0) ? $0 : nil } }
        reach(&homes, entities: entities, positions: positions)
        for index in entities.indices {
            guard let source = homes[index] else {
                // Elsewhere a record names its type in the entity's `type_key`.
                if let (_, mark) = declared[index].unknownType, entities[index].typeKey == nil {
                    diagnostics.error(
                        mark,
                        "'unknown_type' of '\(entities[index].name)' needs a 'type_key' or a JSON:API source (format: jsonapi): without either no record names its type"
                    )
                }
                continue
            }
            let naming = declared[index].settings.attributeNaming
            let type = EntityDecoder.payloadKey(for: entities[index].collection, naming: naming, inflector: inflector)
            entities[index].jsonAPI = JSONAPIResource(type: type, source: source)
            checkIdentity(entities[index])
            // The resource's `meta` is the server's (jsonapi.org: non-standard meta-information): read, never pushed.
            for attribute in entities[index].attributes.indices
            where entities[index].attributes[attribute].keyPath.first == "meta" {
                entities[index].attributes[attribute].readonly = true
            }
        }
        let model = MappingModel(entities: entities)
        for index in entities.indices where entities[index].jsonAPI != nil {
            for relationship in entities[index].relationships
            where connectsByLinkage(relationship, of: index, model, positions: positions) {
                link(relationship, of: &entities[index], model: model)
            }
        }
    }

    /// Gives each entity without a source of its own (`source: false`, or a sub-entity without
    /// one) that a JSON:API entity reaches, by a relationship or as its parent, that entity's
    /// source: its resources arrive included in that source's documents, and go back there.
    private func reach(_ homes: inout [PluginConfig?], entities: [EntityMapping], positions: [String: Int]) {
        var queue = homes.indices.filter { homes[$0] != nil }
        while let index = queue.popLast(), let source = homes[index] {
            let reached =
                entities[index].relationships.map(\.destination)
                + entities.filter { $0.parent == entities[index].name }.map(\.name)
            for name in reached {
                guard let other = positions[name], homes[other] == nil, Self.hasNoSource(declared[other]) else {
                    continue
                }
                homes[other] = source
                queue.append(other)
            }
        }
    }

    /// True for `source: false`, and for a sub-entity that names no source (it arrives with its parent).
    private static func hasNoSource(_ entity: DeclaredEntity) -> Bool {
        switch entity.source {
        case .some(.none): true
        case .none: entity.extends != nil
        case .some(.some): false
        }
    }

    /// True when `source` is an `http` source with `format: jsonapi`.
    static func isJSONAPI(_ source: PluginConfig) -> Bool {
        source.plugin == "http" && source["format"]?.scalar?.text == "jsonapi"
    }

    /// Where an entity's resources live: its own source, else its file's (`source: false` and
    /// sub-entities included: they arrive in other resources' documents, and are pushed there).
    private static func home(of entity: DeclaredEntity) -> PluginConfig? {
        if case .some(.some(let own)) = entity.source { return own }
        return entity.settings.source
    }

    // MARK: - Checks

    /// A resource is identified by its `id` alone: the identity is one attribute read from `id`.
    private func checkIdentity(_ entity: EntityMapping) {
        guard entity.identity.count != 1 || entity.attribute(named: entity.identity[0])?.keyPath != ["id"] else {
            return
        }
        diagnostics.error(
            entity.mark,
            "'\(entity.name)' has a JSON:API source: its identity must be one attribute read from the resource's 'id' (e.g. id: int), found \(entity.identity.isEmpty ? "none" : entity.identity.joined(separator: ", "))"
        )
    }

    // MARK: - Which side connects

    /// True when linkage connects `relationship` of `entities[index]`: it has no `connect:` or
    /// `nested:`, and it is not the inverse of a relationship that is connected.
    private func connectsByLinkage(
        _ relationship: RelationshipMapping, of index: Int, _ model: MappingModel, positions: [String: Int]
    ) -> Bool {
        let entity = model.entities[index]
        guard isUnconnected(relationship, declared: declared[index]) else { return false }
        guard let name = relationship.inverse, let other = positions[relationship.destination],
            let inverse = model.entities[other].relationship(named: name)
        else { return true }
        let destination = model.entities[other]
        guard isUnconnected(inverse, declared: declared[other]) else { return false }
        guard destination.jsonAPI != nil else { return true }
        switch (relationship.kind, inverse.kind) {
        case (.toOne, .toMany): return true
        case (.toMany, .toOne): return false
        default:
            let mine = (model.root(of: entity).name, relationship.name)
            let theirs = (model.root(of: destination).name, inverse.name)
            return mine <= theirs
        }
    }

    /// True when nothing but linkage could fill `relationship`: no `connect:` (even a malformed
    /// one, already reported) and not nested.
    private func isUnconnected(_ relationship: RelationshipMapping, declared entity: DeclaredEntity) -> Bool {
        guard relationship.connection == nil, !relationship.nested else { return false }
        return entity.relationships.first { $0.name == relationship.name }?.node["connect"] == nil
    }

    // MARK: - Hidden attributes

    /// Adds the hidden attributes of `relationship` to `entity` and connects it on them.
    private func link(_ relationship: RelationshipMapping, of entity: inout EntityMapping, model: MappingModel) {
        guard let destination = model.entity(named: relationship.destination) else { return }
        let root = model.root(of: destination)
        guard root.identity.count == 1, let identity = root.attribute(named: root.identity[0]) else {
            diagnostics.error(
                relationship.mark,
                "JSON:API linkage names one id, so '\(entity.name).\(relationship.name)' needs a destination identified by one attribute; '\(root.name)' has \(root.identity.count)"
            )
            return
        }
        let stem =
            relationship.kind == .toOne
            ? relationship.name
            : inflector.camelize(
                inflector.singularize(inflector.underscore(relationship.name)), uppercaseFirstLetter: false)
        let suffix = relationship.kind == .toOne ? "" : "s"
        var linkage = JSONAPILinkage(
            relationship: relationship.name, member: relationship.key, kind: relationship.kind,
            destination: destination.name, ids: "\(stem)Id\(suffix)")
        var hidden = [
            attribute(linkage.ids, identity.type, key: linkage.idsKey, of: relationship, kind: linkage.kind)
        ]
        if model.family(of: destination.name).count > 1 {
            linkage.types = "\(stem)Type\(suffix)"
            hidden.append(
                attribute("\(stem)Type\(suffix)", .string, key: linkage.typesKey, of: relationship, kind: linkage.kind))
        }
        let taken = hidden.compactMap { attribute in
            entity.attributes.first { $0.name == attribute.name || $0.column == attribute.column }.map {
                (attribute, $0)
            }
        }
        for (attribute, declared) in taken {
            diagnostics.error(
                declared.mark,
                "'\(entity.name).\(relationship.name)' keeps its JSON:API linkage in attribute '\(attribute.name)' (column \(attribute.column)), which '\(entity.name)' declares itself: rename this attribute, or give the relationship a connect: of its own"
            )
        }
        if taken.isEmpty {
            entity.attributes += hidden
            entity.jsonAPI?.linkages.append(linkage)
        }
        // Connected even when an attribute is in the way (the model is refused anyway): one message, not two.
        guard let position = entity.relationships.firstIndex(where: { $0.name == relationship.name }) else { return }
        let pair = ForeignKeyPair(source: linkage.ids, destination: identity.name, mark: relationship.mark)
        entity.relationships[position].connection = Connection(rule: .foreignKey([pair]), mark: relationship.mark)
    }

    /// A hidden attribute at `<member>.<key>`, typed `type` for a to-one and `[type]` for a to-many.
    private func attribute(
        _ name: String, _ type: AttributeType, key: String, of relationship: RelationshipMapping,
        kind: RelationshipMapping.Kind
    ) -> AttributeMapping {
        let element: AttributeType = if case .array(let inner) = type { inner } else { type }
        return AttributeMapping(
            name: name, type: kind == .toOne ? element : .array(element), keyPath: [relationship.key, key],
            column: inflector.underscore(name), mark: relationship.mark)
    }
}

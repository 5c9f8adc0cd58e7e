/// The order in which entities are fetched: waves, each of entities whose
/// nested-path parents were fetched in an earlier wave, grouped by source
/// configuration (one source instance per group).
struct FetchPlan {
    /// One source configuration and the entities it fetches in a wave.
    struct Group {
        var config: PluginConfig
        var entities: [EntityMapping]
    }

    /// The waves, in order.
    private(set) var waves: [[Group]] = []

    /// Plans the fetch of `model`'s entities that have a source, limited to `only` when it is not empty.
    init(model: MappingModel, only: Set<String>) {
        let fetched = model.entities.filter { $0.source != nil && (only.isEmpty || only.contains($0.name)) }
        var remaining = fetched
        var waiting = Set(fetched.map(\.name))
        while !remaining.isEmpty {
            let ready = remaining.filter { entity in
                FetchPlan.parents(of: entity, in: model).allSatisfy { !waiting.contains($0) }
            }
            // Parents outside the selection are already stored or not fetched; a cycle cannot be planned further.
            let wave = ready.isEmpty ? remaining : ready
            waves.append(FetchPlan.groups(wave))
            waiting.subtract(wave.map(\.name))
            remaining.removeAll { !waiting.contains($0.name) }
        }
    }

    /// The entities fetched once per parent: a `nested_path` placeholder
    /// (`people/{personId}/projects`) or a `params` value with a placeholder
    /// (`params: {person_id: "{id}"}`) names a foreign key of the entity; the
    /// parent is the destination of the to-one relationship it connects.
    static func parents(of entity: EntityMapping, in model: MappingModel) -> [String] {
        var keys = entity.nestedPath.map(NestedPath.placeholders(in:)) ?? []
        for pair in entity.source?["params"]?.mapping ?? [] {
            guard let key = pair.key.scalar?.text, pair.value.scalar?.text.contains("{") == true else { continue }
            keys.append(key)
        }
        return keys.compactMap { key in
            entity.relationships.first { relationship in
                guard relationship.kind == .toOne, case .foreignKey(let pairs) = relationship.connection?.rule else {
                    return false
                }
                return pairs.contains { pair in
                    guard let attribute = entity.attribute(named: pair.source) else { return false }
                    return [attribute.name, attribute.key, attribute.column].contains(key)
                }
            }?.destination
        }
    }

    private static func groups(_ entities: [EntityMapping]) -> [Group] {
        var groups: [Group] = []
        var positions: [PluginConfig: Int] = [:]
        for entity in entities {
            guard let config = entity.source else { continue }
            if let index = positions[config] {
                groups[index].entities.append(entity)
            } else {
                positions[config] = groups.count
                groups.append(Group(config: config, entities: [entity]))
            }
        }
        return groups
    }
}

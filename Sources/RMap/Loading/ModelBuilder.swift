import Foundation

/// Builds the entities of a model from decoded files: declarations, inheritance,
/// names, relationships, then the checks that need the whole model.
struct ModelBuilder {
    let diagnostics: Diagnostics
    let files: FileDecoder
    let inflector: Inflector

    func build(_ settings: [FileSettings]) -> [EntityMapping] {
        let attributes = AttributeDecoder(
            diagnostics: diagnostics, inflector: inflector, transformers: files.catalog.transformers)
        let decoder = EntityDecoder(diagnostics: diagnostics, files: files, attributes: attributes)
        let declared = settings.flatMap { file in
            file.entities.map { decoder.decode(name: $0.name, node: $0.node, mark: $0.mark, settings: file) }
        }
        checkStores(settings)
        let resolver = EntityResolver(diagnostics: diagnostics, inflector: inflector)
        let resolved = resolver.resolve(declared)
        var entities = resolved.map(resolver.mapping(for:))
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var relationships = RelationshipDecoder(diagnostics: diagnostics, entities: byName, inflector: inflector)
        relationships.relationshipNodes = Dictionary(
            resolved.map { entity in
                (
                    entity.name,
                    Dictionary(
                        entity.relationships.compactMap { pair in
                            (pair.node["to_one"] ?? pair.node["to_many"])?.scalar.map { (pair.name, $0.text) }
                        }, uniquingKeysWith: { _, last in last })
                )
            }, uniquingKeysWith: { first, _ in first })
        for index in entities.indices {
            let declaration = resolved[index]
            let parent = declaration.extends.flatMap { extends in resolved.first { $0.name == extends.name } }
            let inherited = Set(parent?.relationships.map(\.mark) ?? [])
            entities[index].relationships = declaration.relationships.compactMap { relationship in
                let decode = {
                    relationships.decode(
                        relationship.name, relationship.node, mark: relationship.mark, source: entities[index],
                        naming: declaration.settings.attributeNaming)
                }
                return inherited.contains(relationship.mark) ? diagnostics.muted(decode) : decode()
            }
        }
        let checks = ModelChecks(diagnostics: diagnostics, declared: resolved, inflector: inflector)
        _ = checks.run(&entities)
        let deletions = DeletionDecoder(diagnostics: diagnostics)
        for index in entities.indices {
            if let keyAs = resolved[index].recordsKeyAs, entities[index].attribute(named: keyAs.name) == nil {
                diagnostics.error(
                    keyAs.mark,
                    "'key_as' of entity '\(entities[index].name)' names no attribute '\(keyAs.name)'"
                        + Suggestion.hint(for: keyAs.name, in: entities[index].attributes.map(\.name)))
            }
            guard let node = resolved[index].deleteWhen else { continue }
            entities[index].deletion = deletions.decode(node, on: entities[index], in: entities)
        }
        return entities
    }

    private func checkStores(_ settings: [FileSettings]) {
        let stores = settings.compactMap(\.store)
        guard let first = stores.first, stores.count > 1 else { return }
        let expected = Self.content(of: first)
        for store in stores.dropFirst() where Self.content(of: store) != expected {
            diagnostics.error(
                store.mark, "this store differs from the one at \(first.mark): files must agree on the store")
        }
    }

    /// What a store block says, without its marks: the plugin and its options, each `path`
    /// resolved against the declaring file, so files in different folders can name one store.
    private static func content(of store: PluginConfig) -> JSONValue {
        func content(_ node: YAMLNode, key: String?) -> JSONValue {
            switch node {
            case .scalar(let scalar) where key == "path":
                return .string(URL(fileURLWithPath: store.resolvePath(scalar.text)).standardized.path)
            case .scalar(let scalar): return scalar.json
            case .sequence(let items, _): return .array(items.map { content($0, key: nil) })
            case .mapping(let pairs, _):
                let members = pairs.map {
                    (key: $0.key.scalar?.text ?? "", value: content($0.value, key: $0.key.scalar?.text))
                }
                return .object(JSONObject(members.sorted { $0.key < $1.key }))
            }
        }
        return .array([.string(store.plugin), content(store.options, key: nil)])
    }
}

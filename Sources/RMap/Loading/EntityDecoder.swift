/// Decodes one entity's own keys and attributes.
struct EntityDecoder {
    let diagnostics: Diagnostics
    let files: FileDecoder
    /// Decodes each attribute under `attributes:`.
    let attributes: AttributeDecoder

    func decode(name: String, node: YAMLNode, mark: Mark, settings: FileSettings) -> DeclaredEntity {
        var entity = DeclaredEntity(name: name, mark: mark, settings: settings)
        let what = "entity '\(name)'"
        for (key, value) in diagnostics.keyedPairs(node, what, allowed: DeclaredEntity.keys) ?? [] {
            switch key {
            case "element": entity.element = diagnostics.string(value, "'element'")
            case "collection": entity.collection = diagnostics.string(value, "'collection'")
            case "path": entity.path = diagnostics.string(value, "'path'")
            case "records" where value.mapping != nil: decodeKeyedRecords(value, into: &entity)
            case "records": entity.records = diagnostics.string(value, "'records'").map(Self.keyPath)
            case "source":
                if value.scalar?.bool == false {
                    entity.source = .some(nil)
                } else {
                    entity.source = files.plugin(
                        value, "source", plugins: files.catalog.sources, directory: settings.directory)
                }
            case "identity":
                entity.identity = diagnostics.strings(value, "'identity'").map { ($0, value.mark) }
            case "extends": entity.extends = diagnostics.string(value, "'extends'").map { ($0, value.mark) }
            case "type_key": entity.typeKey = diagnostics.string(value, "'type_key'")
            case "types":
                for pair in diagnostics.uniquePairs(value, "'types'") ?? [] {
                    guard let text = pair.key.scalar?.text,
                        let target = diagnostics.string(
                            pair.value, "the entity for type '\(pair.key.scalar?.text ?? "")'")
                    else { continue }
                    entity.types.append((text, target, pair.value.mark))
                }
            case "nested_path": entity.nestedPath = diagnostics.string(value, "'nested_path'").map { ($0, value.mark) }
            case "sort": entity.sort = decodeSort(value)
            case "push": decodePush(value, into: &entity)
            case "on_conflict": entity.onConflict = diagnostics.choice(value, "'on_conflict'", as: ConflictPolicy.self)
            case "orphans": entity.orphans = diagnostics.choice(value, "'orphans'", as: OrphanPolicy.self)
            case "modified_by": entity.modifiedBy = diagnostics.string(value, "'modified_by'").map { ($0, value.mark) }
            case "incremental": entity.incremental = decodeIncremental(value)
            case "delete_when": entity.deleteWhen = value
            case "stream": entity.stream = diagnostics.string(value, "'stream'")
            case "unknown_type":
                entity.unknownType = diagnostics.choice(value, "'unknown_type'", as: UnknownTypePolicy.self)
                    .map { ($0, value.mark) }
            case "query": entity.query = diagnostics.string(value, "'query'")
            case "attributes":
                guard let pairs = diagnostics.keyedPairs(value, "'attributes' of \(what)", allowed: []) else {
                    entity.incomplete = true
                    continue
                }
                for (attribute, spec) in pairs {
                    let keyMark = value.mapping?.first { $0.key.scalar?.text == attribute }?.key.mark ?? spec.mark
                    entity.attributes.append(attributes.decode(attribute, spec, mark: keyMark, settings: settings))
                }
            default:
                for (relationship, spec) in diagnostics.keyedPairs(value, "'relationships' of \(what)", allowed: [])
                    ?? []
                {
                    let keyMark = value.mapping?.first { $0.key.scalar?.text == relationship }?.key.mark ?? spec.mark
                    entity.relationships.append((relationship, spec, keyMark))
                }
            }
        }
        return entity
    }

    /// The keys of `push:`.
    static let pushKeys = ["method", "idempotency_header"]

    /// `push: { method: put | patch, idempotency_header: Name }`; the header name must be an HTTP token.
    private func decodePush(_ node: YAMLNode, into entity: inout DeclaredEntity) {
        for (key, value) in diagnostics.keyedPairs(node, "'push'", allowed: Self.pushKeys) ?? [] {
            if key == "method" {
                entity.pushMethod = diagnostics.choice(value, "'method'", as: PushMethod.self)
                continue
            }
            guard let name = diagnostics.string(value, "'idempotency_header'") else { continue }
            let isToken = name.allSatisfy {
                $0.isASCII && ($0.isLetter || $0.isNumber || "!#$%&'*+-.^_`|~".contains($0))
            }
            guard !name.isEmpty, isToken else {
                diagnostics.error(value.mark, "'idempotency_header' must be an HTTP header name, found '\(name)'")
                continue
            }
            entity.idempotencyHeader = name
        }
    }

    private func decodeSort(_ node: YAMLNode) -> [(key: SortKey, mark: Mark)] {
        let items = node.sequence ?? [node]
        return items.compactMap { item in
            guard let text = diagnostics.string(item, "each key of 'sort'") else { return nil }
            let words = text.split(separator: " ").map(String.init)
            guard (1...2).contains(words.count) else {
                diagnostics.error(
                    item.mark, "a sort key is 'attribute', 'attribute asc' or 'attribute desc', found '\(text)'")
                return nil
            }
            let direction = words.count == 2 ? words[1].lowercased() : "asc"
            guard direction == "asc" || direction == "desc" else {
                diagnostics.error(item.mark, "sort direction must be asc or desc, found '\(words[1])'")
                return nil
            }
            return (SortKey(attribute: words[0], descending: direction == "desc"), item.mark)
        }
    }

    // MARK: - Names

    static func payloadKey(for name: String, naming: FileSettings.AttributeNaming, inflector: Inflector) -> String {
        switch naming {
        case .snakeCase: inflector.underscore(name)
        case .camelCase: inflector.camelize(inflector.underscore(name), uppercaseFirstLetter: false)
        case .kebabCase: inflector.dasherize(inflector.underscore(name))
        case .asIs: name
        }
    }

    static func keyPath(_ text: String) -> [String] {
        text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }
}

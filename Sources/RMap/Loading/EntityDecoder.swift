/// Decodes one entity's own keys and attributes.
struct EntityDecoder {
    let diagnostics: Diagnostics
    let files: FileDecoder
    let inflector: Inflector
    let transformers: [String]

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
                    entity.attributes.append(decodeAttribute(attribute, spec, mark: keyMark, settings: settings))
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

    // MARK: - Attributes

    /// An attribute as declared; one whose type cannot be read is still declared (a string without
    /// its options), so that the identity, connections and sort keys naming it report nothing more.
    func decodeAttribute(_ name: String, _ spec: YAMLNode, mark: Mark, settings: FileSettings) -> AttributeMapping {
        let what = "attribute '\(name)'"
        let defaultKey = Self.payloadKey(for: name, naming: settings.attributeNaming, inflector: inflector)
        // Dasherized keys keep SQL-friendly columns: first-name is stored in first_name.
        let column = settings.attributeNaming == .kebabCase ? inflector.underscore(name) : defaultKey
        let declared = AttributeMapping(name: name, type: .string, keyPath: [defaultKey], column: column, mark: mark)
        var type = AttributeType.string
        var options: [(String, YAMLNode)] = []
        switch spec {
        case .scalar(let scalar) where scalar.isNull: break
        case .scalar, .sequence:
            guard let parsed = decodeType(spec, what) else { return declared }
            type = parsed
        case .mapping:
            options = diagnostics.keyedPairs(spec, what, allowed: DeclaredEntity.attributeKeys) ?? []
            if let typeNode = options.first(where: { $0.0 == "type" })?.1 {
                guard let parsed = decodeType(typeNode, what) else { return declared }
                type = parsed
            }
        }
        var attribute = declared
        attribute.type = type
        for (key, value) in options {
            switch key {
            case "key":
                guard let keyPath = diagnostics.payloadKeyPath(value, of: what) else { continue }
                attribute.keyPath = keyPath
                attribute.column = attribute.keyPath.joined(separator: "_").replacingOccurrences(of: ".", with: "_")
            case "required": attribute.required = diagnostics.bool(value, "'required'") ?? false
            case "readonly": attribute.readonly = diagnostics.bool(value, "'readonly'") ?? false
            case "default_on_missing":
                attribute.defaultOnMissing = diagnostics.bool(value, "'default_on_missing'") ?? false
            case "format": attribute.format = decodeFormat(value, type: type, timeZone: settings.timeZone)
            case "empty_as_null": attribute.emptyAsNull = diagnostics.bool(value, "'empty_as_null'") ?? false
            case "wrap_single": attribute.wrapSingle = decodeWrapSingle(value, type: type)
            case "map":
                for (remote, local) in diagnostics.keyedPairs(value, "'map'", allowed: []) ?? [] {
                    guard let localText = diagnostics.string(local, "the value of '\(remote)'") else { continue }
                    attribute.valueMap.append(ValueMapEntry(remote: remote, local: localText))
                }
            case "transform": decodeTransform(value, into: &attribute, directory: settings.directory)
            case "default":
                attribute.defaultValue = TypedScalar.value(
                    value, as: type, format: nil, diagnostics: diagnostics,
                    what: "the default of \(what)")
            default: break
            }
        }
        attribute.booleanWords = decodeBooleanWords(options, type: type)
        return attribute
    }

    private func decodeType(_ node: YAMLNode, _ what: String) -> AttributeType? {
        let text: String
        if let items = node.sequence {
            guard items.count == 1, let element = items[0].scalar?.text else {
                diagnostics.error(node.mark, "the type of \(what) must be a list of one scalar type, such as [int]")
                return nil
            }
            text = "[\(element)]"
        } else {
            guard let scalar = diagnostics.string(node, "the type of \(what)") else { return nil }
            text = scalar
        }
        if let type = AttributeType(name: text) { return type }
        let hint = AttributeType.suggestion(for: text).map { " (did you mean '\($0)'?)" } ?? ""
        diagnostics.error(node.mark, "unknown type '\(text)' for \(what)\(hint)")
        return nil
    }

    private func decodeFormat(_ node: YAMLNode, type: AttributeType, timeZone: String?) -> TimeFormat? {
        guard let text = diagnostics.string(node, "'format'") else { return nil }
        let base: AttributeType = if case .array(let element) = type { element } else { type }
        guard base == .date || base == .datetime else {
            diagnostics.error(node.mark, "'format' applies to date and datetime attributes, not \(type)")
            return nil
        }
        return TimeFormat(name: text, timeZone: timeZone)
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

/// Decodes one attribute of an entity: its type and its options (`key`, `format`, `map`,
/// `transform`, `default`, ...), each checked against the type.
struct AttributeDecoder {
    let diagnostics: Diagnostics
    let inflector: Inflector
    /// The names of the registered transformers, which `transform:` may name.
    let transformers: [String]

    /// An attribute as declared; one whose type cannot be read is still declared (a string without
    /// its options), so that the identity, connections and sort keys naming it report nothing more.
    func decode(_ name: String, _ spec: YAMLNode, mark: Mark, settings: FileSettings) -> AttributeMapping {
        let what = "attribute '\(name)'"
        let defaultKey = EntityDecoder.payloadKey(for: name, naming: settings.attributeNaming, inflector: inflector)
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
}

extension YAMLScalar {
    /// The JSON a scalar stands for: plain `null`, booleans and numbers resolve; everything else
    /// is a string.
    var json: JSONValue {
        if isNull { return .null }
        if let flag = bool { return .bool(flag) }
        if style == .plain, double != nil { return .number(text) }
        return .string(text)
    }
}

extension YAMLNode {
    /// The JSON a YAML block stands for (a Singer source's `config:` as the tap reads it, a
    /// `rmap test` case's payload): mappings become objects, sequences arrays, scalars what
    /// ``YAMLScalar/json`` makes of them.
    var json: JSONValue {
        switch self {
        case .scalar(let scalar): scalar.json
        case .sequence(let items, _): .array(items.map(\.json))
        case .mapping(let pairs, _): .object(JSONObject(pairs.map { ($0.key.scalar?.text ?? "", $0.value.json) }))
        }
    }
}

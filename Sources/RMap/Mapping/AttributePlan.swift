/// One attribute as the mapper reads it, worked out once per entity: where its
/// value sits, the value map, the conversion and the transformers.
final class AttributePlan {
    /// The attribute's position in its entity.
    let position: Int
    let name: String
    /// The position of the first key in ``EntityPlan/slots``.
    let slot: Int
    /// The keys below the first, for values inside nested objects.
    let rest: [String]
    /// The key path as users write it, for errors.
    let key: String
    let type: AttributeType
    let format: TimeFormat?
    /// `empty_as_null`: `""` reads as `null`.
    let emptyAsNull: Bool
    /// `wrap_single`: a value that is neither an array nor `null` reads as a one-element array.
    let wrapSingle: Bool
    /// `true_values` / `false_values`, when set.
    let booleans: BooleanWords?
    let required: Bool
    let defaultValue: Value?
    /// The default also stands for a missing key on a stored object.
    let defaultOnMissing: Bool
    /// Payload text -> stored text; empty when the attribute has no `map:`.
    let valueMap: [String: String]
    /// The transformers by name; `nil` where the name is not registered.
    let transformers: [(name: String, transformer: (any Transformer)?)]
    let checksShape: Bool

    /// The value a record without the key takes whatever the store holds (`default_on_missing`).
    var missingFill: Value? { defaultOnMissing ? defaultValue : nil }

    init(_ attribute: AttributeMapping, position: Int, slot: Int, transformers: [String: any Transformer]) {
        self.position = position
        name = attribute.name
        self.slot = slot
        rest = Array(attribute.keyPath.dropFirst())
        key = attribute.key
        type = attribute.type
        format = attribute.format
        emptyAsNull = attribute.emptyAsNull
        wrapSingle = attribute.wrapSingle
        booleans = attribute.booleanWords
        required = attribute.required
        defaultValue = attribute.defaultValue
        defaultOnMissing = attribute.defaultOnMissing
        valueMap = Dictionary(attribute.valueMap.map { ($0.remote, $0.local) }, uniquingKeysWith: { _, last in last })
        self.transformers = attribute.transforms.map { ($0, transformers[$0]) }
        checksShape = TextShape.isChecked(attribute.type)
    }

    /// What went wrong with one attribute's value.
    struct Failure: Error {
        let message: String
        let value: JSONValue
    }

    /// The stored value for a payload value: `empty_as_null`, `wrap_single`, value map, conversion,
    /// shape check, transformers.
    func value(from payload: JSONValue) -> Result<Value, Failure> {
        var json = payload
        if emptyAsNull, case .string("") = json { json = .null }
        if wrapSingle {
            switch json {
            case .array, .null: break
            default: json = .array([json])
            }
        }
        let mapped = valueMap.isEmpty ? json : mapValue(json)
        var value: Value
        switch Self.typed(
            mapped, shown: payload, as: type, format: format, booleans: booleans, checksShape: checksShape)
        {
        case .success(let typed): value = typed
        case .failure(let failure): return .failure(failure)
        }
        guard !value.isNull else { return .success(value) }
        for (name, transformer) in transformers {
            guard let transformer else {
                return .failure(Failure(message: "transformer '\(name)' is not registered", value: payload))
            }
            guard let transformed = transformer.transform(value) else {
                let message = "transformer '\(name)' cannot transform \(ValueText.display(payload))"
                return .failure(Failure(message: message, value: payload))
            }
            value = transformed
        }
        return .success(value)
    }

    /// `json` as a value of `type`: the conversion and shape check every stored value passes,
    /// whether a payload or an `exec` plugin sent it. Messages show `shown` (the value before `map:`).
    static func typed(
        _ json: JSONValue, shown: JSONValue, as type: AttributeType, format: TimeFormat?,
        booleans: BooleanWords? = nil, checksShape: Bool
    ) -> Result<Value, Failure> {
        guard let value = ValueConverter.value(from: json, as: type, format: format, booleans: booleans) else {
            let message = "cannot read \(ValueText.display(shown)) as \(described(type))"
            return .failure(Failure(message: message, value: shown))
        }
        if checksShape, !TextShape.isValid(value, as: type) {
            return .failure(Failure(message: "\(ValueText.display(shown)) is not \(described(type))", value: shown))
        }
        return .success(value)
    }

    /// The value map applied to a scalar, or to each member of an array. A
    /// value the map does not list passes through unchanged, so a new server
    /// value is stored as sent rather than lost.
    private func mapValue(_ json: JSONValue) -> JSONValue {
        switch json {
        case .string(let text), .number(let text): valueMap[text].map(JSONValue.string) ?? json
        case .bool(let flag): valueMap[flag ? "true" : "false"].map(JSONValue.string) ?? json
        case .array(let items): .array(items.map(mapValue))
        default: json
        }
    }

    /// `a date`, `an int`, `[int]`.
    static func described(_ type: AttributeType) -> String {
        switch type {
        case .int: "an int"
        case .array: "\(type)"
        default: "a \(type)"
        }
    }
}

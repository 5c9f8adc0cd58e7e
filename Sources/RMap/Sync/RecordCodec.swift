/// Writes an object's columns as a request body and reads a server's answer
/// back into columns, by the entity's payload keys (MAPPING.md §2.1):
/// key paths nest (`address.city` -> `{"address": {"city": ...}}`), value
/// maps apply in reverse when writing, and the element name wraps the record
/// unless the entity's root is `bare`.
struct RecordCodec {
    let entity: SyncSchema.EntitySync

    // MARK: - Writing

    /// The body carrying `columns` of `values`.
    func body(_ values: [Value], columns: [Int]) -> JSONValue {
        var record = JSONObject()
        for payload in entity.columns where columns.contains(payload.column) {
            Self.set(json(values[payload.column], payload), at: payload.keyPath[...], in: &record)
        }
        let mapping = entity.route
        return mapping.root == .bare ? .object(record) : .object(JSONObject([(mapping.element, .object(record))]))
    }

    /// The `type_key` member a created single-table-inheritance object needs, when its root has one.
    func typeMember() -> (key: String, value: JSONValue)? {
        guard entity.table.discriminator != nil, entity.type.index != entity.type.rootIndex else { return nil }
        return (entity.type.mapping.typeKey ?? "type", .string(entity.typeValue))
    }

    /// `value` as the payload carries it: value maps reversed, times in the attribute's format.
    func json(_ value: Value, _ payload: SyncSchema.PayloadColumn) -> JSONValue {
        guard let attribute = payload.attribute else { return ValueConverter.json(from: value) }
        if !attribute.valueMap.isEmpty, !value.isNull,
            let entry = attribute.valueMap.first(where: { $0.local == ValueText.display(value) })
        {
            return .string(entry.remote)
        }
        return ValueConverter.json(from: value, format: attribute.format)
    }

    /// Sets `value` at the key path `path` of `object`, making the objects on the way.
    static func set(_ value: JSONValue, at path: ArraySlice<String>, in object: inout JSONObject) {
        guard let key = path.first else { return }
        let rest = path.dropFirst()
        let position = object.members.firstIndex { $0.key == key }
        guard !rest.isEmpty else {
            if let position { object.members[position].value = value } else { object.members.append((key, value)) }
            return
        }
        var child = position.flatMap { object.members[$0].value.object } ?? JSONObject()
        set(value, at: rest, in: &child)
        if let position {
            object.members[position].value = .object(child)
        } else {
            object.members.append((key, .object(child)))
        }
    }

    // MARK: - Reading

    /// `values` with every column the server's answer carries replaced by the answer's value.
    func merging(_ answer: JSONValue, into values: [Value]) -> [Value] {
        guard var record = answer.object else { return values }
        let element = entity.route.element
        if entity.route.root != .bare, record.members.count == 1, let inner = record[element]?.object {
            record = inner
        }
        var merged = values
        for payload in entity.columns {
            guard let json = Self.lookup(payload.keyPath[...], in: record) else { continue }
            let type = entity.table.columns[payload.column].type
            guard let attribute = payload.attribute else {
                if let value = ValueConverter.value(from: json, as: type) { merged[payload.column] = value }
                continue
            }
            var mapped = json
            if let text = Self.text(json), let entry = attribute.valueMap.first(where: { $0.remote == text }) {
                mapped = .string(entry.local)
            }
            if let value = ValueConverter.value(from: mapped, as: attribute.type, format: attribute.format) {
                merged[payload.column] = value
            }
        }
        return merged
    }

    private static func lookup(_ path: ArraySlice<String>, in object: JSONObject) -> JSONValue? {
        guard let key = path.first, let value = object[key] else { return nil }
        let rest = path.dropFirst()
        if rest.isEmpty { return value }
        return value.object.flatMap { lookup(rest, in: $0) }
    }

    private static func text(_ json: JSONValue) -> String? {
        switch json {
        case .string(let text), .number(let text): text
        case .bool(let flag): flag ? "true" : "false"
        default: nil
        }
    }
}

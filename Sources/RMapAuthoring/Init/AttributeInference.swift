import RMap

/// The second pass of ``MappingInference``: one entity's attributes, identity
/// and `type` key from its records.
///
/// A key holding scalars gets the type ``ScalarTypeGuess`` finds; arrays of
/// scalars `[T]`; an object without `id` whose keys are plain words and whose
/// values are scalars is flattened into key-path attributes (`address.city`
/// becomes `addressCity`); any other object, and a key that was always `null`,
/// is `json`. A key is `required` when no record lacks it or holds `null`.
struct AttributeInference {
    /// The names in use.
    var naming: InferenceNaming
    /// The entity's records.
    var draft: EntityDraft
    /// The attributes found, in key order.
    private(set) var attributes: [InferredAttribute] = []
    /// What was noticed.
    private(set) var notes: [InferenceNote] = []

    init(naming: InferenceNaming, draft: EntityDraft) {
        self.naming = naming
        self.draft = draft
        let nestedKeys = Set(draft.nested.map(\.key))
        for key in orderedKeys() where !nestedKeys.contains(key) { infer(key) }
    }

    /// `id`, or the one key whose values are present, scalar and distinct in every record.
    var identity: String? {
        if let id = attributes.first(where: { $0.key == nil && $0.name == "id" }), id.required { return id.name }
        guard draft.objects.count > 1 else { return nil }
        let unique = attributes.filter { attribute in
            guard attribute.key == nil, attribute.required, [.int, .string, .uuid].contains(attribute.type) else {
                return false
            }
            let key = naming.inflector.underscore(attribute.name)
            return Set(draft.objects.compactMap { $0[key] }).count == draft.objects.count
        }
        return unique.count == 1 ? unique[0].name : nil
    }

    /// Without ``identity``: every attribute whose values are present and scalar in every record
    /// (no json, arrays or doubles), to identify a record together.
    var compositeIdentity: [String] {
        guard identity == nil else { return [] }
        return attributes.filter { attribute in
            attribute.key == nil && attribute.required && !attribute.type.isArray
                && ![.json, .double].contains(attribute.type)
        }.map(\.name)
    }

    /// The `type` key, when its values are class names (`Admin`, `Person`).
    var typeKey: InferredEntity.TypeKey? {
        guard attributes.contains(where: { $0.name == "type" && $0.type == .string }) else { return nil }
        let values = Set(draft.objects.compactMap { $0["type"]?.string })
        guard !values.isEmpty, values.allSatisfy({ $0.first?.isUppercase == true }) else { return nil }
        return InferredEntity.TypeKey(key: "type", values: values.sorted())
    }

    // MARK: - Keys

    private func orderedKeys() -> [String] {
        var seen: Set<String> = []
        var keys: [String] = []
        for object in draft.objects {
            for key in object.keys where seen.insert(key).inserted { keys.append(key) }
        }
        return keys
    }

    private mutating func infer(_ key: String) {
        let values = draft.objects.compactMap { $0[key] }.filter { $0 != .null }
        let required = values.count == draft.objects.count
        guard !values.isEmpty, let subkeys = Self.plainKeys(values) else {
            if !values.isEmpty, values.allSatisfy({ $0.object != nil }) {
                notes.append(
                    .inferred("\(draft.name).\(key): objects without id whose keys are not all plain words; typed json")
                )
            }
            add(key, path: [key], values: values, required: required)
            return
        }
        let objects = values.compactMap(\.object)
        for subkey in subkeys {
            let inner = objects.compactMap { $0[subkey] }.filter { $0 != .null }
            add(
                key + "_" + subkey, path: [key, subkey], values: inner,
                required: required && inner.count == objects.count)
        }
        notes.append(
            .inferred("\(draft.name).\(key): an object without id, flattened into \(subkeys.count) attributes"))
    }

    /// The keys of objects that can be flattened: plain words holding no objects; `nil` otherwise.
    private static func plainKeys(_ values: [JSONValue]) -> [String]? {
        var subkeys: [String] = []
        for value in values {
            guard let object = value.object else { return nil }
            for (subkey, inner) in object.members where !subkeys.contains(subkey) {
                guard isWord(subkey), inner.object == nil else { return nil }
                subkeys.append(subkey)
            }
        }
        return subkeys
    }

    private mutating func add(_ word: String, path: [String], values: [JSONValue], required: Bool) {
        let (guess, doubt) = Self.type(of: values, key: path[path.count - 1])
        var name = naming.property(word)
        while attributes.contains(where: { $0.name == name }) { name += "2" }
        let key = path.count == 1 && naming.isDefaultKey(path[0], of: name) ? nil : path
        if let doubt { notes.append(.unsure("\(draft.name).\(path.joined(separator: ".")): \(doubt)")) }
        attributes.append(
            InferredAttribute(
                name: name, key: key, type: guess.type, format: guess.format,
                required: required && guess.type != .json, comment: doubt.map { "check: \($0)" }))
    }

    /// The type of a key's non-null values, and a doubt about it.
    private static func type(of values: [JSONValue], key: String) -> (ScalarTypeGuess, String?) {
        let json = ScalarTypeGuess(type: .json)
        if values.isEmpty { return (json, "always null or missing; typed json") }
        if values.allSatisfy({ $0.array != nil }) {
            let items = values.flatMap { $0.array ?? [] }.filter { $0 != .null }
            if items.isEmpty { return (json, "only empty arrays; typed json") }
            guard items.allSatisfy(isScalar), let element = ScalarTypeGuess.guess(items, key: key) else {
                return (json, "arrays of objects without id or of mixed values; typed json")
            }
            return (ScalarTypeGuess(type: .array(element.type), format: element.format), nil)
        }
        if values.allSatisfy({ $0.object != nil }) { return (json, nil) }
        if values.contains(where: { !isScalar($0) }) { return (json, "objects and other values; typed json") }
        guard let guess = ScalarTypeGuess.guess(values, key: key) else {
            return (json, "values of several kinds; typed json")
        }
        return (guess, nil)
    }

    private static func isScalar(_ value: JSONValue) -> Bool {
        value.object == nil && value.array == nil
    }

    /// A key the `snake_case` rule can name: lower-case letters, digits and underscores.
    private static func isWord(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return key.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }
}

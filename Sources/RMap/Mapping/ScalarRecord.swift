/// The elements of a nested to-many that is an array of scalars (`tags: ["a", "b"]`)
/// read as the records they stand for: the destination's lone identity attribute
/// holding the scalar (`{"name": "a"}` for a `Tag` with `identity: name`), as
/// RestKit maps a scalar array to objects through a nil source key path.
enum ScalarRecord {
    /// The records of `items` when every one is a string, number or boolean (or `null`, kept to be
    /// skipped) and the destination's identity is one attribute; `nil` otherwise (the items are
    /// then mapped, or rejected, as objects).
    static func records(_ items: [JSONValue], for type: EntityType) -> [JSONValue]? {
        guard type.identityIndices.count == 1, items.contains(where: isScalar),
            items.allSatisfy({ isScalar($0) || $0 == .null })
        else { return nil }
        return items.map { isScalar($0) ? record($0, for: type) : $0 }
    }

    private static func isScalar(_ element: JSONValue) -> Bool {
        switch element {
        case .string, .number, .bool: true
        case .null, .array, .object: false
        }
    }

    /// The record of one scalar: the identity's key path holding it.
    private static func record(_ element: JSONValue, for type: EntityType) -> JSONValue {
        let keyPath = type.mapping.attributes[type.identityIndices[0]].keyPath
        return keyPath.reversed().reduce(element) { inner, key in .object(JSONObject([(key, inner)])) }
    }
}

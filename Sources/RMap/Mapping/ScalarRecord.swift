/// A scalar element of a nested to-many (`tags: ["a", "b"]`) read as the record
/// it stands for: the destination's lone identity attribute holding the scalar
/// (`{"name": "a"}` for a `Tag` with `identity: name`), as RestKit maps a
/// scalar array to objects through a nil source key path.
enum ScalarRecord {
    /// The record of `element`, or `nil` when it is no scalar or the destination's
    /// identity is not one attribute (the element is then rejected as before).
    static func record(_ element: JSONValue, for type: EntityType) -> JSONValue? {
        switch element {
        case .string, .number, .bool: break
        case .null, .array, .object: return nil
        }
        guard type.identityIndices.count == 1 else { return nil }
        let keyPath = type.mapping.attributes[type.identityIndices[0]].keyPath
        return keyPath.reversed().reduce(element) { inner, key in .object(JSONObject([(key, inner)])) }
    }
}

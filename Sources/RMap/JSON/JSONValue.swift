/// A parsed JSON value as payloads carry it.
///
/// Numbers keep their literal text, so a decimal such as `12.50` stays exact
/// and an integer never passes through `Double`. Objects keep their keys in
/// document order.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number's literal text, e.g. `42`, `-1.5e3`, `12.50`.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The object, when the value is one.
    public var object: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The elements, when the value is an array.
    public var array: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// The string, when the value is one.
    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// A short word for the kind of value, for error messages.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON object: key-value members in document order.
///
/// Lookup is a linear scan, which beats hashing for the small objects that
/// records are; a duplicated key resolves to its last occurrence. Objects
/// that rmap parses hold each key once: a key repeated in the JSON text keeps
/// its last value, at its last position (as JavaScript and PostgreSQL's `jsonb`
/// do), so identity, attributes and stored `json` values all see the same
/// value. Equality ignores the order of keys.
public struct JSONObject: Sendable, Hashable {
    /// The members in document order.
    public var members: [(key: String, value: JSONValue)]

    /// Creates an object from members.
    public init(_ members: [(key: String, value: JSONValue)] = []) {
        self.members = members
    }

    /// The value under `key`, or `nil` when the key is missing.
    public subscript(key: String) -> JSONValue? {
        get {
            members.last { $0.key == key }?.value
        }
        set {
            if let index = members.lastIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append((key, newValue))
            }
        }
    }

    /// The keys in document order.
    public var keys: [String] { members.map(\.key) }

    /// Objects are equal when they hold the same keys with equal values, in any order
    /// (JSON objects are unordered; PostgreSQL's `jsonb`, for one, reorders keys).
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        if zip(lhs.members, rhs.members).allSatisfy({ $0.key == $1.key && $0.value == $1.value }) { return true }
        return lhs.members.allSatisfy { member in rhs[member.key] == member.value }
            && rhs.members.allSatisfy { member in lhs[member.key] == member.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(members.count)
        var combined = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member.key)
            memberHasher.combine(member.value)
            combined = combined &+ memberHasher.finalize()
        }
        hasher.combine(combined)
    }
}

/// One JSON Schema (draft 2020-12): its keywords in the order they are printed.
///
/// ```swift
/// SchemaNode.enumeration(["keep", "delete"]).described("What happens to orphans.", default: "keep")
/// ```
public struct SchemaNode: Sendable {
    /// A property of an object schema: its name and its schema.
    public typealias Property = (name: String, schema: SchemaNode)

    /// The keywords, in order.
    public var keywords: [(key: String, value: JSONValue)]

    /// A schema of these keywords.
    public init(_ keywords: [(key: String, value: JSONValue)]) {
        self.keywords = keywords
    }

    /// The schema as a JSON object.
    public var json: JSONValue { .object(JSONObject(keywords)) }

    /// `{"type": name}`.
    static func type(_ name: String) -> SchemaNode { SchemaNode([("type", .string(name))]) }

    /// Any string.
    static let string = type("string")
    /// `true` or `false`.
    static let boolean = type("boolean")
    /// A whole number.
    static let integer = type("integer")
    /// Any value.
    static let anything = SchemaNode([])

    /// One of these strings.
    static func enumeration(_ values: [String]) -> SchemaNode {
        SchemaNode([("enum", .array(values.map(JSONValue.string)))])
    }

    /// Exactly this value.
    static func constant(_ value: JSONValue) -> SchemaNode { SchemaNode([("const", value)]) }

    /// The schema under `#/$defs/name`.
    static func ref(_ name: String) -> SchemaNode { SchemaNode([("$ref", .string("#/$defs/\(name)"))]) }

    /// Any of these schemas.
    static func anyOf(_ schemas: [SchemaNode]) -> SchemaNode {
        SchemaNode([("anyOf", .array(schemas.map(\.json)))])
    }

    /// A list whose items fit `items`.
    static func array(of items: SchemaNode) -> SchemaNode {
        SchemaNode([("type", .string("array")), ("items", items.json)])
    }

    /// A value, or a list of such values.
    static func oneOrList(_ item: SchemaNode) -> SchemaNode { anyOf([item, array(of: item)]) }

    /// An object of these properties and no others.
    static func object(_ properties: [Property], required: [String] = []) -> SchemaNode {
        var keywords: [(key: String, value: JSONValue)] = [
            ("type", .string("object")),
            ("properties", .object(JSONObject(properties.map { ($0.name, $0.schema.json) }))),
        ]
        if !required.isEmpty { keywords.append(("required", .array(required.map(JSONValue.string)))) }
        keywords.append(("additionalProperties", .bool(false)))
        return SchemaNode(keywords)
    }

    /// An object whose keys are names the file chooses, each value fitting `values`.
    static func map(of values: SchemaNode) -> SchemaNode {
        SchemaNode([("type", .string("object")), ("additionalProperties", values.json)])
    }

    /// A mapping of strings to strings.
    static let stringMap = map(of: .string)

    /// This schema, with exactly one of these keys present.
    func requiringOne(of keys: [String]) -> SchemaNode {
        var node = self
        let choices = keys.map { JSONValue.object(JSONObject([("required", .array([.string($0)]))])) }
        node.keywords.append(("oneOf", .array(choices)))
        return node
    }

    /// This schema with a description and, when given, a default, as editors show them.
    func described(_ text: String, default value: JSONValue? = nil) -> SchemaNode {
        var node = self
        node.keywords.append(("description", .string(text)))
        if let value { node.keywords.append(("default", value)) }
        return node
    }
}

/// The `$defs` of an attribute and its type in ``MappingSchema``: `attribute` and `attributeType`.
enum AttributeSchema {
    /// `string`, `int`, ... and `[string]`, `[int]`, ...
    static var type: SchemaNode {
        SchemaNode.enumeration(AttributeType.scalarNames + AttributeType.scalarNames.map { "[\($0)]" })
            .described("A scalar type, or [type] for an array of one.")
    }

    /// An attribute: nothing, a type, `[type]`, or a mapping of its options.
    static var attribute: SchemaNode {
        let options = SchemaNode.object([
            (
                "type",
                SchemaNode.anyOf([.ref("attributeType"), arrayType]).described(
                    "The attribute's type.", default: .string("string"))
            ),
            (
                "key",
                keyPath.described(
                    "Where the value sits in a record: a key path (address.city) or a list of literal segments; by default the name inflected."
                )
            ),
            (
                "required",
                SchemaNode.boolean.described(
                    "An object new to the store must have a non-null value.", default: .bool(false))
            ),
            (
                "default",
                SchemaNode.anything.described(
                    "The value an object new to the store gets when its payload has no key for the attribute.")
            ),
            (
                "default_on_missing",
                SchemaNode.boolean.described(
                    "The default also applies to a stored object whose payload lacks the key.", default: .bool(false))
            ),
            (
                "format",
                SchemaNode.string.described(
                    "How date and datetime values are read and written: iso8601, epoch_s, epoch_ms, or a date pattern such as dd/MM/yyyy.",
                    default: .string("iso8601"))
            ),
            ("map", SchemaNode.map(of: .anything).described("Payload value -> stored value, applied both ways.")),
            ("readonly", SchemaNode.boolean.described("Fetched and stored, never pushed.", default: .bool(false))),
            (
                "empty_as_null",
                SchemaNode.boolean.described("An empty string reads as null.", default: .bool(false))
            ),
            (
                "true_values",
                SchemaNode.array(of: .string).described(
                    "bool only: the texts that read as true, compared ignoring case.")
            ),
            (
                "false_values",
                SchemaNode.array(of: .string).described(
                    "bool only: the texts that read as false, compared ignoring case.")
            ),
            (
                "wrap_single",
                SchemaNode.boolean.described(
                    "Array types only: a value that is not an array reads as a one-element array.",
                    default: .bool(false))
            ),
            (
                "transform",
                SchemaNode.oneOrList(.ref("transformer")).described("Transformers applied in order after conversion.")
            ),
        ])
        return SchemaNode.anyOf([.constant(.null), .ref("attributeType"), arrayType, options])
            .described("An attribute: nothing (a string), a type, [type], or a mapping of options.")
    }

    /// An attribute name, or a path of payload keys.
    private static let keyPath = SchemaNode.oneOrList(.string)

    /// `[string]` written as a YAML list.
    private static let arrayType = SchemaNode([
        ("type", .string("array")), ("items", SchemaNode.enumeration(AttributeType.scalarNames).json),
        ("minItems", .number("1")), ("maxItems", .number("1")),
    ])
}

/// The `$defs` of a relationship in ``MappingSchema``: the relationship, its connection and the
/// predicates that filter it.
enum RelationshipSchema {
    /// A relationship: exactly one of `to_one` or `to_many`, and how it is filled.
    static var relationship: SchemaNode {
        SchemaNode.object([
            ("to_one", SchemaNode.string.described("A to-one relationship to this entity.")),
            ("to_many", SchemaNode.string.described("A to-many relationship to this entity.")),
            ("inverse", SchemaNode.string.described("The relationship on the destination that points back.")),
            (
                "nested",
                SchemaNode.boolean.described(
                    "The payload embeds the destination records under key.", default: .bool(false))
            ),
            ("key", SchemaNode.string.described("The payload key of embedded records; by default the name inflected.")),
            (
                "assignment",
                SchemaNode.enumeration(RelationshipMapping.Assignment.allCases.map(\.rawValue)).described(
                    "What a new payload does to a to-many set: replace it, or add to it.", default: .string("replace"))
            ),
            ("ordered", SchemaNode.boolean.described("A to-many keeps the payload's order.", default: .bool(false))),
            ("connect", SchemaNode.ref("connect").described("How sources find their destinations; not with nested.")),
            (
                "embedded",
                SchemaNode.boolean.described(
                    "A to-one built from the record's own keys; takes no nested, key or connect.", default: .bool(false)
                )
            ),
            (
                "identify_nested_by_parent_key",
                SchemaNode.anyOf([.constant(.bool(true)), .stringMap]).described(
                    "Nested records take these attributes (child attribute -> parent attribute) from their parent before their identity is read."
                )
            ),
            (
                "missing",
                SchemaNode.enumeration(RelationshipMapping.Missing.allCases.map(\.rawValue)).described(
                    "What a record without the relationship's key does to a nested relationship: keep it, or empty it.",
                    default: .string("keep"))
            ),
        ]).requiringOne(of: ["to_one", "to_many"]).described(
            "A relationship: exactly one of to_one or to_many, filled by nested, connect or an inverse.")
    }

    /// `connect:`: exactly one of `foreign_key` or `key_path`, with the predicates that filter it.
    static var connect: SchemaNode {
        SchemaNode.object([
            (
                "foreign_key",
                SchemaNode.stringMap.described(
                    "Source attribute -> destination attribute: connect to destinations whose attributes equal the source's."
                )
            ),
            ("key_path", SchemaNode.string.described("Connect to what a path on the source object reaches.")),
            (
                "include_subentities",
                SchemaNode.boolean.described("Whether sub-entities of the destination match too.", default: .bool(true))
            ),
            ("when", SchemaNode.ref("predicate").described("Only sources matching it are connected.")),
            ("where", SchemaNode.ref("predicate").described("Only destinations matching it are connected to.")),
        ]).requiringOne(of: ["foreign_key", "key_path"]).described(
            "How sources find their destinations: exactly one of foreign_key or key_path.")
    }

    /// Attribute -> condition, as `when:`, `where:` and `delete_when:` take them.
    static var predicate: SchemaNode {
        SchemaNode.map(of: .ref("condition")).described("Attribute -> condition; every condition must hold.")
    }

    /// A plain value, a list, or a mapping of one operator.
    static var condition: SchemaNode {
        let operators = SchemaNode.object([
            ("eq", SchemaNode.anything.described("Equal.")),
            ("ne", SchemaNode.anything.described("Not equal.")),
            ("lt", SchemaNode.anything.described("Less than.")),
            ("le", SchemaNode.anything.described("At most.")),
            ("gt", SchemaNode.anything.described("Greater than.")),
            ("ge", SchemaNode.anything.described("At least.")),
            ("in", SchemaNode.array(of: .anything).described("One of.")),
            ("null", SchemaNode.boolean.described("true: is null; false: is not null.")),
        ])
        return SchemaNode.anyOf([
            .type("string"), .type("number"), .boolean, .constant(.null), .array(of: .anything), operators,
        ])
        .described("A plain value (equal), a list (one of), or operators.")
    }
}

/// The `$defs` of an entity, its attributes, relationships, connections and predicates.
extension MappingSchema {
    /// The definitions of the entity-level schemas, by name.
    static var entityDefinitions: [SchemaNode.Property] {
        [
            ("entity", entity), ("attribute", attribute), ("attributeType", attributeType),
            ("relationship", relationship), ("connect", connect), ("predicate", predicate),
            ("condition", condition),
        ]
    }

    /// An attribute name, or a path of payload keys.
    static let keyPath = SchemaNode.oneOrList(.string)

    static var entity: SchemaNode {
        SchemaNode.object([
            (
                "element",
                SchemaNode.string.described(
                    "The name that wraps one record; by default the entity's name minus the prefix, singular and underscored."
                )
            ),
            (
                "collection",
                SchemaNode.string.described(
                    "The name that wraps many records; the table name; by default the element's plural.")
            ),
            ("path", SchemaNode.string.described("The URL path under an HTTP site; by default the collection.")),
            (
                "records",
                SchemaNode.anyOf([
                    .string,
                    .object([
                        (
                            "path",
                            SchemaNode.string.described("The key path of the object whose members are the records.")
                        ),
                        ("key_as", SchemaNode.string.described("The attribute that receives each member's key.")),
                    ]),
                ]).described(
                    "Where the records sit in a payload (a key path such as data.items), or {path, key_as} for an object of records keyed by an attribute."
                )
            ),
            (
                "source",
                SchemaNode.anyOf([.constant(.bool(false)), .ref("source")]).described(
                    "This entity's own source, overriding the file's; false: the entity only arrives nested in other entities' payloads."
                )
            ),
            (
                "identity",
                SchemaNode.oneOrList(.string).described("The attribute(s) that identify an object; by default id.")
            ),
            (
                "extends",
                SchemaNode.string.described("The entity this one is a sub-entity of (Rails' single-table inheritance).")
            ),
            (
                "type_key",
                SchemaNode.string.described("Polymorphic payloads: the payload key whose value picks the entity.")
            ),
            ("types", stringMap.described("Type-key value -> entity; each must be the entity or extend it.")),
            (
                "nested_path",
                SchemaNode.string.described("HTTP: fetch once per parent, e.g. people/{personId}/projects.")
            ),
            (
                "sort",
                SchemaNode.oneOrList(.string).described(
                    "HTTP: the order parameter, each item 'attribute', 'attribute asc' or 'attribute desc'.")
            ),
            (
                "push",
                SchemaNode.object([
                    (
                        "method",
                        SchemaNode.enumeration(PushMethod.allCases.map(\.rawValue)).described(
                            "The HTTP method for changed objects.", default: .string("put"))
                    ),
                    (
                        "idempotency_header",
                        SchemaNode.string.described(
                            "The header that carries a POST's idempotency key.", default: .string("Idempotency-Key"))
                    ),
                ]).described("How changes of this entity are pushed.")
            ),
            (
                "on_conflict",
                SchemaNode.enumeration(ConflictPolicy.allCases.map(\.rawValue)).described(
                    "What a re-fetch does when it meets a local edit.", default: .string("fail"))
            ),
            (
                "orphans",
                SchemaNode.enumeration(OrphanPolicy.allCases.map(\.rawValue)).described(
                    "delete: after a complete fetch, delete local objects the payload no longer has.",
                    default: .string("keep"))
            ),
            (
                "modified_by",
                SchemaNode.string.described(
                    "The attribute that tells when an object last changed: an older record is skipped as stale, an equal one as unchanged."
                )
            ),
            ("incremental", incremental),
            (
                "delete_when",
                SchemaNode([
                    ("type", .string("object")),
                    (
                        "properties",
                        .object(
                            JSONObject([
                                (
                                    RelationshipDecoder.missingFromParent,
                                    SchemaNode.boolean.described(
                                        "A nested child its parent's list no longer holds is deleted."
                                    ).json
                                )
                            ]))
                    ),
                    ("additionalProperties", SchemaNode.ref("condition").json),
                ]).described("Tombstones: a record matching this predicate deletes the stored object it names.")
            ),
            ("stream", SchemaNode.string.described("Singer: the stream whose records this entity takes.")),
            (
                "unknown_type",
                SchemaNode.enumeration(UnknownTypePolicy.allCases.map(\.rawValue)).described(
                    "What a record of a type the entity does not know does (a type_key naming no entity of the family, a JSON:API resource of a type no entity maps): fail naming it, or be left out.",
                    default: .string("reject"))
            ),
            (
                "query",
                SchemaNode.string.described(
                    "GraphQL: the query that fetches this entity's records, using $after to page.")
            ),
            ("attributes", SchemaNode.map(of: .ref("attribute")).described("Attribute name -> attribute.")),
            ("relationships", SchemaNode.map(of: .ref("relationship")).described("Relationship name -> relationship.")),
        ]).described("An entity: a kind of record, its attributes and relationships.")
    }

    static var incremental: SchemaNode {
        SchemaNode.object(
            [
                ("cursor", SchemaNode.string.described("The attribute whose largest stored value is the cursor.")),
                ("param", SchemaNode.string.described("The query parameter that carries the cursor.")),
                ("initial", SchemaNode.string.described("The parameter's value while no cursor is stored.")),
                ("lag", SchemaNode.string.described("A window re-read before the cursor: 30s, 5m, 2h, 1d.")),
                (
                    "format",
                    SchemaNode.string.described(
                        "How a date or datetime cursor is written: a strftime-like pattern, iso8601, epoch_s, epoch_ms or a date pattern."
                    )
                ),
            ],
            required: ["cursor", "param"]
        ).described("Fetch only what changed since the last run, by a cursor attribute.")
    }

    /// `string`, `int`, ... and `[string]`, `[int]`, ...
    static var attributeType: SchemaNode {
        SchemaNode.enumeration(AttributeType.scalarNames + AttributeType.scalarNames.map { "[\($0)]" })
            .described("A scalar type, or [type] for an array of one.")
    }

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
                SchemaNode.array(of: .string).described("bool only: the texts that read as true, compared ignoring case.")
            ),
            (
                "false_values",
                SchemaNode.array(of: .string).described("bool only: the texts that read as false, compared ignoring case.")
            ),
            (
                "wrap_single",
                SchemaNode.boolean.described(
                    "Array types only: a value that is not an array reads as a one-element array.", default: .bool(false))
            ),
            (
                "transform",
                SchemaNode.oneOrList(.ref("transformer")).described("Transformers applied in order after conversion.")
            ),
        ])
        return SchemaNode.anyOf([.constant(.null), .ref("attributeType"), arrayType, options])
            .described("An attribute: nothing (a string), a type, [type], or a mapping of options.")
    }

    /// `[string]` written as a YAML list.
    static let arrayType = SchemaNode([
        ("type", .string("array")), ("items", SchemaNode.enumeration(AttributeType.scalarNames).json),
        ("minItems", .number("1")), ("maxItems", .number("1")),
    ])

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
                    "A to-one built from the record's own keys; takes no nested, key or connect.", default: .bool(false))
            ),
            (
                "identify_nested_by_parent_key",
                SchemaNode.anyOf([.constant(.bool(true)), stringMap]).described(
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

    static var connect: SchemaNode {
        SchemaNode.object([
            (
                "foreign_key",
                stringMap.described(
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

    static var predicate: SchemaNode {
        SchemaNode.map(of: .ref("condition")).described("Attribute -> condition; every condition must hold.")
    }

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

/// The `$defs` of an entity in ``MappingSchema``: its own keys, its `incremental:` block, and
/// references to its attributes' (``AttributeSchema``) and relationships' (``RelationshipSchema``).
enum EntitySchema {
    /// An entity: a kind of record, its attributes and relationships.
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
            ("types", .stringMap.described("Type-key value -> entity; each must be the entity or extend it.")),
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
                                    DeletionDecoder.missingFromParent,
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

    /// `incremental: { cursor:, param:, initial:, lag:, format: }`.
    private static var incremental: SchemaNode {
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
}

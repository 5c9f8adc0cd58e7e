/// The JSON Schema (draft 2020-12) of the mapping-file format, for editors that validate
/// and complete YAML against one (`# yaml-language-server: $schema=rmap.schema.json`).
///
/// Every key the loader accepts is in it, with its type, enum, default and a description
/// from docs/mapping.md; the `source:`, `store:` and `stages:` blocks list the options of the
/// plugins a ``PluginCatalog`` holds, so a program that registers its own plugins prints a
/// schema that knows them.
///
/// ```swift
/// let text = JSONWriter.serialize(MappingSchema.document(catalog: registry.catalog))
/// ```
public enum MappingSchema {
    /// The schema document.
    public static func document(catalog: PluginCatalog) -> JSONValue {
        var root = SchemaNode.object(fileProperties, required: ["rmap"])
        root.keywords.insert(
            contentsOf: [
                ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
                ("title", .string("rmap mapping file (rmap: 1)")),
                (
                    "description",
                    .string("Entities, their attributes and relationships, and where their records come from and go.")
                ),
            ], at: 0)
        let definitions: [SchemaNode.Property] = [
            ("source", plugins(catalog.sources, kind: "source", defaultPlugin: "file")),
            ("store", plugins(catalog.stores, kind: "store", defaultPlugin: "sqlite")),
            ("stage", plugins(catalog.stages, kind: "stage", defaultPlugin: nil)),
            ("transformer", transformer(catalog.transformers)),
            ("entity", EntitySchema.entity), ("attribute", AttributeSchema.attribute),
            ("attributeType", AttributeSchema.type), ("relationship", RelationshipSchema.relationship),
            ("connect", RelationshipSchema.connect), ("predicate", RelationshipSchema.predicate),
            ("condition", RelationshipSchema.condition),
        ]
        root.keywords.append(("$defs", .object(JSONObject(definitions.map { ($0.name, $0.schema.json) }))))
        return root.json
    }

    /// The keys at the top of a mapping file.
    static let fileProperties: [SchemaNode.Property] = [
        ("rmap", SchemaNode.constant(.number("1")).described("The schema version; this rmap reads 1.")),
        (
            "source",
            SchemaNode.ref("source").described(
                "The fetch plugin for this file's entities. Without it the file's entities arrive only inside other entities' payloads, unless one names its own source."
            )
        ),
        (
            "naming",
            SchemaNode.object([
                (
                    "entity_prefix",
                    SchemaNode.string.described(
                        "Dropped from entity names before they become element names: CRMPerson -> person.",
                        default: .string(""))
                ),
                (
                    "attributes",
                    SchemaNode.enumeration(FileSettings.AttributeNaming.allCases.map(\.rawValue)).described(
                        "How attribute and relationship names become payload keys.", default: .string("snake_case"))
                ),
                (
                    "root",
                    SchemaNode.enumeration(RootStyle.allCases.map(\.rawValue)).described(
                        "Rails' include_root_in_json: wrapped records look like {\"person\": {...}}, bare ones like {...}; auto reads both.",
                        default: .string("auto"))
                ),
            ]).described("How names become payload keys, for this file's entities.")
        ),
        (
            "inflections",
            SchemaNode.object([
                ("irregular", .stringMap.described("Singular: plural pairs, as Rails' inflect.irregular.")),
                ("uncountable", words.described("Words with no plural, as Rails' inflect.uncountable.")),
                ("acronyms", words.described("Acronyms kept in upper case, as Rails' inflect.acronym.")),
                ("plural", .stringMap.described("Regular expression: replacement rules, as Rails' inflect.plural.")),
                (
                    "singular",
                    .stringMap.described("Regular expression: replacement rules, as Rails' inflect.singular.")
                ),
                ("human", .stringMap.described("Regular expression: replacement rules, as Rails' inflect.human.")),
            ]).described("Words added to the inflector that names every entity of the model.")
        ),
        (
            "entities",
            SchemaNode.map(of: .ref("entity")).described(
                "Entity name -> entity: what a kind of record is and how it maps.")
        ),
        (
            "store",
            SchemaNode.ref("store").described(
                "The persist plugin; every file that names one names the same; rmap run --store overrides it.")
        ),
        (
            "stages",
            SchemaNode.array(of: .ref("stage")).described(
                "Stage plugins run after connect, before the store writes, in the order given.")
        ),
        (
            "time_zone",
            SchemaNode.string.described(
                "The IANA zone in which this file's format: patterns without a zone of their own are read and written.",
                default: .string("UTC"))
        ),
    ]

    /// A word or a list of words.
    static let words = SchemaNode.oneOrList(.string)
}

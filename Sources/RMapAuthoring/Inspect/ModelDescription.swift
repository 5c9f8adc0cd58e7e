public import RMap

/// The JSON form of `rmap inspect`: one document describing every resolved
/// name of a model, stable for tools (its schema is in `docs/cli.md`).
///
/// ```swift
/// let text = JSONWriter.serialize(ModelDescription.document(of: model))
/// // {"schema":1,"files":["crm.yml"],"store":{...},"entities":[{"name":"CRMPerson",...}]}
/// ```
///
/// Keys are always present (absent values are `null`, empty lists `[]`), in a
/// fixed order; plugin option values read from the environment are redacted.
public enum ModelDescription {
    /// The version of the document's shape; a change that breaks readers raises it.
    public static let schema = 1

    /// The document for `model`.
    public static func document(of model: MappingModel) -> JSONValue {
        object([
            ("schema", .number(String(schema))),
            ("files", .array(model.files.map(JSONValue.string))),
            ("store", model.store.map { plugin($0, in: model) } ?? .null),
            ("entities", .array(model.entities.map { entity($0, in: model) })),
        ])
    }

    // MARK: - Entities

    private static func entity(_ entity: EntityMapping, in model: MappingModel) -> JSONValue {
        object([
            ("name", .string(entity.name)),
            ("file", .string(entity.mark.file)),
            ("line", number(entity.mark.line)),
            ("column", number(entity.mark.column)),
            ("element", .string(entity.element)),
            ("collection", .string(entity.collection)),
            ("path", .string(entity.path)),
            ("table", .string(InspectText.table(of: entity, in: model))),
            ("parent", string(entity.parent)),
            ("identity", strings(entity.identity)),
            ("identity_inferred", .bool(entity.identityInferred)),
            ("source", entity.source.map { plugin($0, in: model) } ?? .null),
            ("records", entity.records.map(strings) ?? .null),
            ("type_key", string(entity.typeKey)),
            ("types", object(entity.types.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
            ("unknown_type", .string(entity.unknownType.rawValue)),
            ("nested_path", string(entity.nestedPath)),
            (
                "sort",
                .array(
                    entity.sort.map {
                        object([
                            ("attribute", .string($0.attribute)),
                            ("direction", .string($0.descending ? "desc" : "asc")),
                        ])
                    })
            ),
            ("push", object([("method", .string(entity.pushMethod.rawValue))])),
            ("on_conflict", .string(entity.onConflict.rawValue)),
            ("orphans", .string(entity.orphans.rawValue)),
            ("root", .string(entity.root.rawValue)),
            ("jsonapi", entity.jsonAPI.map(jsonAPI) ?? .null),
            ("attributes", .array(entity.attributes.map(attribute))),
            ("relationships", .array(entity.relationships.map { relationship($0, in: model) })),
        ])
    }

    private static func jsonAPI(_ resource: JSONAPIResource) -> JSONValue {
        let linkages = resource.linkages.map { linkage in
            object([
                ("relationship", .string(linkage.relationship)), ("member", .string(linkage.member)),
                ("ids", .string(linkage.ids)), ("types", string(linkage.types)),
            ])
        }
        return object([("type", .string(resource.type)), ("linkage", .array(linkages))])
    }

    private static func attribute(_ attribute: AttributeMapping) -> JSONValue {
        object([
            ("name", .string(attribute.name)),
            ("type", .string(attribute.type.description)),
            ("key", strings(attribute.keyPath)),
            ("column", .string(attribute.column)),
            ("required", .bool(attribute.required)),
            ("readonly", .bool(attribute.readonly)),
            ("default", attribute.defaultValue.map { ValueConverter.json(from: $0) } ?? .null),
            ("map", object(attribute.valueMap.map { ($0.remote, .string($0.local)) })),
            ("transform", strings(attribute.transforms)),
            ("format", attribute.format.map { .string(InspectText.format($0)) } ?? .null),
            ("time_zone", timeZone(of: attribute.format)),
            ("empty_as_null", .bool(attribute.emptyAsNull)),
            ("wrap_single", .bool(attribute.wrapSingle)),
            ("true_values", attribute.booleanWords.map { strings($0.trueValues) } ?? .null),
            ("false_values", attribute.booleanWords.map { strings($0.falseValues) } ?? .null),
        ])
    }

    private static func timeZone(of format: TimeFormat?) -> JSONValue {
        guard case .pattern(_, let zone?) = format else { return .null }
        return .string(zone)
    }

    // MARK: - Relationships

    private static func relationship(_ relationship: RelationshipMapping, in model: MappingModel) -> JSONValue {
        let parentKey = InspectText.parentKey(of: relationship, in: model).map { pairs in
            JSONValue.array(
                pairs.map { object([("attribute", .string($0.source)), ("parent", .string($0.destination))]) })
        }
        return object([
            ("name", .string(relationship.name)),
            ("kind", .string(relationship.kind.rawValue)),
            ("destination", .string(relationship.destination)),
            ("inverse", string(relationship.inverse)),
            ("nested", .bool(relationship.nested)),
            ("embedded", .bool(relationship.embedded)),
            ("identify_nested_by_parent_key", parentKey ?? .null),
            ("key", strings(relationship.keyPath)),
            ("assignment", .string(relationship.assignment.rawValue)),
            ("missing", .string(relationship.missing.rawValue)),
            ("connection", relationship.connection.map(connection) ?? .null),
        ])
    }

    private static func connection(_ connection: Connection) -> JSONValue {
        var foreignKey: JSONValue = .null
        var keyPath: JSONValue = .null
        switch connection.rule {
        case .foreignKey(let pairs):
            foreignKey = .array(
                pairs.map { object([("source", .string($0.source)), ("destination", .string($0.destination))]) })
        case .keyPath(let path):
            keyPath = strings(path)
        }
        return object([
            ("foreign_key", foreignKey),
            ("key_path", keyPath),
            ("include_subentities", .bool(connection.includeSubentities)),
            ("when", predicate(connection.sourcePredicate)),
            ("where", predicate(connection.destinationPredicate)),
        ])
    }

    private static func predicate(_ predicate: Predicate) -> JSONValue {
        .array(
            predicate.clauses.map { clause in
                let (name, operand) = condition(clause.condition)
                return object([
                    ("attribute", .string(clause.attribute)), ("condition", .string(name)), ("value", operand),
                ])
            })
    }

    private static func condition(_ condition: Predicate.Condition) -> (String, JSONValue) {
        switch condition {
        case .eq(let value): ("eq", ValueConverter.json(from: value))
        case .ne(let value): ("ne", ValueConverter.json(from: value))
        case .lt(let value): ("lt", ValueConverter.json(from: value))
        case .le(let value): ("le", ValueConverter.json(from: value))
        case .gt(let value): ("gt", ValueConverter.json(from: value))
        case .ge(let value): ("ge", ValueConverter.json(from: value))
        case .in(let values): ("in", .array(values.map { ValueConverter.json(from: $0) }))
        case .null(let isNull): ("null", .bool(isNull))
        }
    }

    // MARK: - Pieces

    private static func plugin(_ config: PluginConfig, in model: MappingModel) -> JSONValue {
        object([("plugin", .string(config.plugin)), ("options", InspectText.json(config.options, in: model))])
    }

    private static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject(members.map { (key: $0.0, value: $0.1) }))
    }

    private static func number(_ value: Int) -> JSONValue { .number(String(value)) }

    private static func string(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    private static func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }
}

import RMap

/// The text forms that every inspect renderer shares: keys, plugin options,
/// values, conditions and time formats as a mapping file would write them.
enum InspectText {
    /// A key path as written: `address.city`, or `[lamp.enabled]` when a segment holds a dot.
    static func key(_ segments: [String]) -> String {
        segments.contains { $0.contains(".") }
            ? "[\(segments.joined(separator: ", "))]" : segments.joined(separator: ".")
    }

    /// A plugin's options in YAML flow style, with environment values redacted.
    static func options(_ node: YAMLNode, in model: MappingModel) -> String {
        model.redact(flow(node))
    }

    private static func flow(_ node: YAMLNode) -> String {
        switch node {
        case .scalar(let scalar): scalar.text
        case .sequence(let items, _): "[\(items.map(flow).joined(separator: ", "))]"
        case .mapping(let pairs, _): "{\(pairs.map { "\(flow($0.key)): \(flow($0.value))" }.joined(separator: ", "))}"
        }
    }

    /// A plugin's options as JSON: plain numbers, booleans and nulls typed, everything else a redacted string.
    static func json(_ node: YAMLNode, in model: MappingModel) -> JSONValue {
        switch node {
        case .scalar(let scalar):
            if scalar.isNull { return .null }
            if let flag = scalar.bool { return .bool(flag) }
            if scalar.int != nil { return .number(scalar.text) }
            return .string(model.redact(scalar.text))
        case .sequence(let items, _): return .array(items.map { json($0, in: model) })
        case .mapping(let pairs, _):
            return .object(
                JSONObject(pairs.map { (model.redact($0.key.scalar?.text ?? flow($0.key)), json($0.value, in: model)) })
            )
        }
    }

    /// A value as a mapping file writes it.
    static func value(_ value: Value) -> String {
        ValueText.display(value)
    }

    /// A condition of `when:` or `where:`: `status = active`, `age >= 18`, `id in [1, 2]`, `deletedAt is null`.
    static func clause(_ clause: Predicate.Clause) -> String {
        let operation: String
        switch clause.condition {
        case .eq(let operand): operation = "= \(value(operand))"
        case .ne(let operand): operation = "!= \(value(operand))"
        case .lt(let operand): operation = "< \(value(operand))"
        case .le(let operand): operation = "<= \(value(operand))"
        case .gt(let operand): operation = "> \(value(operand))"
        case .ge(let operand): operation = ">= \(value(operand))"
        case .in(let operands): operation = "in [\(operands.map(value).joined(separator: ", "))]"
        case .null(let isNull): operation = isNull ? "is null" : "is not null"
        }
        return "\(clause.attribute) \(operation)"
    }

    /// A predicate's conditions, ANDed.
    static func predicate(_ predicate: Predicate) -> String {
        predicate.clauses.map(clause).joined(separator: " and ")
    }

    /// A time format as the `format:` key takes it.
    static func format(_ format: TimeFormat) -> String {
        switch format {
        case .iso8601: "iso8601"
        case .epochSeconds: "epoch_s"
        case .epochMilliseconds: "epoch_ms"
        case .dotnet: "dotnet"
        case .pattern(let pattern, _): pattern
        }
    }

    /// The attributes a relationship's nested records take from their parent
    /// (`identify_nested_by_parent_key`, resolved), or `nil` when it names none.
    static func parentKey(of relationship: RelationshipMapping, in model: MappingModel) -> [ForeignKeyPair]? {
        guard relationship.parentKey != nil, let destination = model.entity(named: relationship.destination) else {
            return nil
        }
        return relationship.parentKeyPairs(destination: destination)
    }

    /// A sort key as the `sort:` key takes it.
    static func sort(_ key: SortKey) -> String {
        "\(key.attribute) \(key.descending ? "desc" : "asc")"
    }

    /// The table that stores an entity: its root's collection.
    static func table(of entity: EntityMapping, in model: MappingModel) -> String {
        model.root(of: entity).collection
    }

    /// The attributes an entity declares itself (not inherited from its parent).
    static func ownAttributes(of entity: EntityMapping, in model: MappingModel) -> [AttributeMapping] {
        let inherited = Set(entity.parent.flatMap(model.entity(named:))?.attributes.map(\.name) ?? [])
        return entity.attributes.filter { !inherited.contains($0.name) }
    }

    /// The relationships an entity declares itself (not inherited from its parent).
    static func ownRelationships(of entity: EntityMapping, in model: MappingModel) -> [RelationshipMapping] {
        let inherited = Set(entity.parent.flatMap(model.entity(named:))?.relationships.map(\.name) ?? [])
        return entity.relationships.filter { !inherited.contains($0.name) }
    }
}

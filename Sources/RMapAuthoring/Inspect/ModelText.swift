public import RMap

/// The text form of `rmap inspect`: one block per entity with every resolved
/// name, then the store.
///
/// ```text
/// CRMPerson (crm.yml:8:3)
///   element: person
///   collection: people
///   ...
///   attributes:
///     firstName: string, key first_name, column first_name
///   relationships:
///     projects: to_many CRMProject, inverse owner, nested, key projects, assignment replace
/// ```
public enum ModelText {
    /// The model as indented text, ending with a newline.
    public static func render(_ model: MappingModel) -> String {
        var blocks = model.entities.map { entity(for: $0, in: model) }
        if let store = model.store {
            blocks.append("store: \(store.plugin) \(InspectText.options(store.options, in: model))\n")
        }
        return blocks.joined(separator: "\n")
    }

    private static func entity(for entity: EntityMapping, in model: MappingModel) -> String {
        var lines = ["\(entity.name) (\(entity.mark))"]
        func add(_ key: String, _ value: String?) {
            if let value { lines.append("  \(key): \(value)") }
        }
        add("element", entity.element)
        add("collection", entity.collection)
        add("path", entity.path)
        add("table", InspectText.table(of: entity, in: model))
        add("parent", entity.parent)
        add(
            "identity",
            entity.identity.isEmpty
                ? "none" : entity.identity.joined(separator: ", ") + (entity.identityInferred ? " (inferred)" : ""))
        add(
            "source",
            entity.source.map { "\($0.plugin) \(InspectText.options($0.options, in: model))" }
                ?? "none (arrives nested)")
        add("jsonapi", entity.jsonAPI.map(jsonAPI))
        add("records", entity.records.map(InspectText.key))
        add("query", entity.query.map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") })
        add("type_key", entity.typeKey)
        if entity.unknownType != .reject { add("unknown_type", entity.unknownType.rawValue) }
        if !entity.types.isEmpty {
            add(
                "types",
                "{\(entity.types.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))}")
        }
        add("nested_path", entity.nestedPath)
        if !entity.sort.isEmpty { add("sort", "[\(entity.sort.map(InspectText.sort).joined(separator: ", "))]") }
        add("push", entity.pushMethod.rawValue)
        add("on_conflict", entity.onConflict.rawValue)
        add("orphans", entity.orphans.rawValue)
        add("modified_by", entity.modifiedBy)
        add("root", entity.root.rawValue)
        if !entity.attributes.isEmpty {
            lines.append("  attributes:")
            lines += entity.attributes.map { "    \($0.name): \(attribute($0))" }
        }
        if !entity.relationships.isEmpty {
            lines.append("  relationships:")
            lines += entity.relationships.map { "    \($0.name): \(relationship($0, in: model))" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `type people, linkage {owner: ownerId, tags: tagIds + tagTypes}`.
    private static func jsonAPI(_ resource: JSONAPIResource) -> String {
        let linkages = resource.linkages.map { linkage in
            "\(linkage.relationship): \(linkage.ids)" + (linkage.types.map { " + \($0)" } ?? "")
        }
        return "type \(resource.type)" + (linkages.isEmpty ? "" : ", linkage {\(linkages.joined(separator: ", "))}")
    }

    private static func attribute(_ attribute: AttributeMapping) -> String {
        var parts = ["\(attribute.type)", "key \(InspectText.key(attribute.keyPath))", "column \(attribute.column)"]
        if attribute.required { parts.append("required") }
        if attribute.readonly { parts.append("readonly") }
        if let value = attribute.defaultValue { parts.append("default \(InspectText.value(value))") }
        if !attribute.valueMap.isEmpty {
            parts.append("map {\(attribute.valueMap.map { "\($0.remote): \($0.local)" }.joined(separator: ", "))}")
        }
        if !attribute.transforms.isEmpty { parts.append("transform [\(attribute.transforms.joined(separator: ", "))]") }
        if let format = attribute.format { parts.append("format \(InspectText.format(format))") }
        if case .pattern(_, let zone?) = attribute.format { parts.append("time_zone \(zone)") }
        if attribute.emptyAsNull { parts.append("empty_as_null") }
        if attribute.wrapSingle { parts.append("wrap_single") }
        if let words = attribute.booleanWords {
            parts.append("true_values [\(words.trueValues.joined(separator: ", "))]")
            parts.append("false_values [\(words.falseValues.joined(separator: ", "))]")
        }
        return parts.joined(separator: ", ")
    }

    private static func relationship(_ relationship: RelationshipMapping, in model: MappingModel) -> String {
        var parts = ["\(relationship.kind.rawValue) \(relationship.destination)"]
        if let inverse = relationship.inverse { parts.append("inverse \(inverse)") }
        if relationship.embedded {
            parts.append("embedded")
        } else {
            if relationship.nested { parts.append("nested") }
            parts.append("key \(InspectText.key(relationship.keyPath))")
        }
        if let pairs = InspectText.parentKey(of: relationship, in: model) {
            let shown = pairs.map { "\($0.source) <- \($0.destination)" }
            parts.append("identify_nested_by_parent_key {\(shown.joined(separator: ", "))}")
        }
        if relationship.kind == .toMany { parts.append("assignment \(relationship.assignment.rawValue)") }
        if relationship.missing != .keep { parts.append("missing \(relationship.missing.rawValue)") }
        if let connection = relationship.connection { parts += self.connection(connection) }
        return parts.joined(separator: ", ")
    }

    private static func connection(_ connection: Connection) -> [String] {
        var parts: [String]
        switch connection.rule {
        case .foreignKey(let pairs):
            parts = ["foreign_key {\(pairs.map { "\($0.source) -> \($0.destination)" }.joined(separator: ", "))}"]
        case .keyPath(let path):
            parts = ["key_path \(path.joined(separator: "."))"]
        }
        parts.append("include_subentities \(connection.includeSubentities)")
        if !connection.sourcePredicate.isEmpty {
            parts.append("when {\(InspectText.predicate(connection.sourcePredicate))}")
        }
        if !connection.destinationPredicate.isEmpty {
            parts.append("where {\(InspectText.predicate(connection.destinationPredicate))}")
        }
        return parts
    }
}

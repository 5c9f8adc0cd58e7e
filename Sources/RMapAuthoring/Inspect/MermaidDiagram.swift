public import RMap

/// The Mermaid form of `rmap inspect`: an `erDiagram` with one block per
/// table and one line per relationship (an inverse pair is one line).
///
/// ```text
/// erDiagram
///     CRMPerson {
///         int id PK
///         string first_name "firstName"
///     }
///     CRMProject {
///         int id PK
///     }
///     CRMPerson ||--o{ CRMProject : projects
/// ```
///
/// A block is named after the table's root entity and lists the columns the
/// store gives the table (``StoreLayout``): the attributes of the root and of
/// every entity extending it, the `type` column that tells them apart, and
/// the foreign-key columns of to-one relationships (a nested task's
/// `project_id`). Identity columns are `PK`; columns that connect a to-one
/// relationship are `FK`; a comment gives the attribute's name when it
/// differs from the column. Cardinalities: a to-many end is `o{`, a to-one
/// end `o|`; the other end is `||` for a nested to-many (its records always
/// arrive inside their parent), `|o` for a connected to-one inverse and `}o`
/// otherwise.
public enum MermaidDiagram {
    /// The diagram text, ending with a newline.
    public static func render(_ model: MappingModel) -> String {
        var lines = ["erDiagram"]
        let schema = GraphSchema(model: model)
        let layout = StoreLayout(schema: schema)
        let connecting = foreignKeyAttributes(in: model)
        for table in layout.tables {
            lines.append("    \(name(table.rootEntity)) {")
            let links = linkColumns(of: table, layout: layout, schema: schema)
            for (position, column) in table.columns.enumerated() {
                var attribute: String?
                if case .attribute(let named) = table.roles[position] { attribute = named }
                var keys: [String] = []
                if table.identity.contains(position) { keys.append("PK") }
                if links.contains(position) || connecting.contains("\(table.rootEntity).\(attribute ?? "")") {
                    keys.append("FK")
                }
                var line = "        \(type(column.type)) \(name(column.name))"
                if !keys.isEmpty { line += " \(keys.joined(separator: ", "))" }
                if let attribute, attribute != column.name { line += " \"\(attribute)\"" }
                lines.append(line)
            }
            lines.append("    }")
        }
        for link in RelationshipLink.links(in: model) {
            guard let destination = model.entity(named: link.relationship.destination) else { continue }
            let left = name(model.root(of: link.source).name)
            let right = name(model.root(of: destination).name)
            lines.append(
                "    \(left) \(cardinality(of: link))--\(end(link.relationship)) \(right) : \(label(link.relationship.name))"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The positions of a table's columns that hold a to-one's destination identity: the store's
    /// foreign-key columns (a nested to-one's `project_id`), whether an attribute shares the column or not.
    private static func linkColumns(of table: TableLayout, layout: StoreLayout, schema: GraphSchema) -> Set<Int> {
        let family = schema.types.filter { schema.root(of: $0).name == table.rootEntity }
        return Set(family.flatMap { layout.foreignKeyColumns(of: $0) })
    }

    /// The attributes that are the source side of a to-one foreign key, as `Root.attribute`.
    private static func foreignKeyAttributes(in model: MappingModel) -> Set<String> {
        var names: Set<String> = []
        for entity in model.entities {
            let root = model.root(of: entity).name
            for relationship in entity.relationships where relationship.kind == .toOne {
                if case .foreignKey(let pairs)? = relationship.connection?.rule {
                    names.formUnion(pairs.map { "\(root).\($0.source)" })
                }
            }
        }
        return names
    }

    /// The marker at the source's end: how many sources one destination object has.
    private static func cardinality(of link: RelationshipLink) -> String {
        switch link.inverse?.kind {
        case .toOne?: link.relationship.nested ? "||" : "|o"
        case .toMany?: "}o"
        case nil: link.relationship.nested && link.relationship.kind == .toMany ? "||" : "}o"
        }
    }

    /// The marker at the destination's end.
    private static func end(_ relationship: RelationshipMapping) -> String {
        relationship.kind == .toMany ? "o{" : "o|"
    }

    /// A type as one word: `int`, `string`, `int[]`.
    private static func type(_ type: AttributeType) -> String {
        if case .array(let element) = type { return "\(element)[]" }
        return type.description
    }

    /// A name with characters Mermaid does not allow replaced by `_`.
    private static func name(_ text: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
        let cleaned = String(text.map { allowed.contains($0) ? $0 : "_" })
        return cleaned.first?.isLetter == true || cleaned.first == "_" ? cleaned : "_\(cleaned)"
    }

    /// A relationship label: the bare name when it is one word, quoted otherwise.
    private static func label(_ text: String) -> String {
        text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } ? text : "\"\(text)\""
    }
}

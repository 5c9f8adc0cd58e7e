public import RMap

/// The Graphviz form of `rmap inspect`: a `digraph` with one record-shaped
/// node per entity and labelled edges for relationships and `extends`.
///
/// ```text
/// digraph rmap {
///     rankdir=LR;
///     node [shape=record, fontname="Helvetica", fontsize=10];
///     edge [fontname="Helvetica", fontsize=9];
///     "CRMPerson" [label="{CRMPerson|table people|id: int\lfirstName: string\l}"];
///     "CRMPerson" -> "CRMProject" [label="projects / owner", dir=both, arrowhead=crow, arrowtail=tee];
/// }
/// ```
///
/// A node lists the attributes its entity declares (a sub-entity's inherited
/// ones are on its parent, joined by a dashed `extends` edge). An edge's head
/// is a crow's foot for to-many and a tee for to-one; an inverse pair is one
/// edge with both ends drawn.
public enum DotGraph {
    /// The graph text, ending with a newline.
    public static func render(_ model: MappingModel) -> String {
        var lines = [
            "digraph rmap {",
            "    rankdir=LR;",
            "    node [shape=record, fontname=\"Helvetica\", fontsize=10];",
            "    edge [fontname=\"Helvetica\", fontsize=9];",
        ]
        for entity in model.entities {
            let attributes = InspectText.ownAttributes(of: entity, in: model)
                .map { "\(record($0.name)): \(record($0.type.description))\\l" }.joined()
            let title = "\(record(entity.name))|table \(record(InspectText.table(of: entity, in: model)))"
            lines.append("    \(id(entity.name)) [label=\"{\(title)|\(attributes)}\"];")
        }
        for entity in model.entities {
            if let parent = entity.parent {
                lines.append(
                    "    \(id(entity.name)) -> \(id(parent)) [label=\"extends\", style=dashed, arrowhead=empty];")
            }
        }
        for link in RelationshipLink.links(in: model) {
            var attributes = ["label=\(quoted(link.label))"]
            if let inverse = link.inverse {
                attributes += ["dir=both", "arrowhead=\(arrow(link.relationship))", "arrowtail=\(arrow(inverse))"]
            } else {
                attributes.append("arrowhead=\(arrow(link.relationship))")
            }
            lines.append(
                "    \(id(link.source.name)) -> \(id(link.relationship.destination)) [\(attributes.joined(separator: ", "))];"
            )
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func arrow(_ relationship: RelationshipMapping) -> String {
        relationship.kind == .toMany ? "crow" : "tee"
    }

    /// A node id: a quoted string.
    private static func id(_ name: String) -> String { quoted(name) }

    /// A DOT string literal.
    private static func quoted(_ text: String) -> String {
        "\"\(text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))\""
    }

    /// Text inside a record label, with the record syntax characters escaped.
    private static func record(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "{}|<>\"\\".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}

/// Where each child stands in its parent's `ordered` nested to-many when the
/// link is the child's foreign key (``EntityBinding/positions``): worked out once
/// per write, so that writing a child's row finds its place without scanning
/// the parent's list.
struct ListPositions {
    private struct Key: Hashable {
        let child: GraphObject
        /// The child's to-one relationship position.
        let relationship: Int
    }

    private var places: [Key: Int] = [:]

    init(graph: ObjectGraph, layout: StoreLayout) {
        let schema = graph.schema
        guard schema.types.contains(where: { !layout.bindings[$0.index].positions.isEmpty }) else { return }
        let parentRoots = schema.roots.filter { root in
            schema.family(of: root).contains { type in
                type.mapping.relationships.contains { $0.ordered && $0.nested && $0.kind == .toMany }
            }
        }
        for root in parentRoots {
            for parent in graph.objects(root: root.index) {
                for (index, relationship) in parent.type.mapping.relationships.enumerated()
                where relationship.ordered && relationship.nested && parent.isAssigned(at: index) {
                    guard let inverse = relationship.inverse else { continue }
                    for (place, child) in parent.related(at: index).enumerated() {
                        guard let back = child.type.relationshipIndex(inverse) else { continue }
                        places[Key(child: child, relationship: back)] = place
                    }
                }
            }
        }
    }

    /// The child's place in the list its to-one `relationship` points into, when a payload set that list.
    func place(of child: GraphObject, relationship: Int) -> Int? {
        places.isEmpty ? nil : places[Key(child: child, relationship: relationship)]
    }
}

/// Sets nested relationships and keeps their inverses consistent: when a
/// project joins a person's `projects`, its `owner` becomes that person (and
/// it leaves its former owner's `projects`).
enum RelationshipLinker {
    /// Sets the relationship to `children`: a to-one takes the first; a to-many
    /// replaces its set or adds to it, as its `assignment` says.
    static func assign(_ children: [GraphObject], to source: GraphObject, _ nested: NestedPlan) {
        source.markAssigned(at: nested.position)
        let current = source.related(at: nested.position)
        guard nested.toMany else {
            guard let child = children.first else { return }
            if let old = current.first, old != child { detach(old, from: source, nested) }
            source.setRelated(at: nested.position, to: [child])
            attach(child, to: source, nested)
            return
        }
        var members: [GraphObject]
        if nested.replaces {
            members = []
            append(children, to: &members)
            if !current.isEmpty {
                let kept = members.count > fewObjects ? Set(members) : nil
                for old in current where !(kept?.contains(old) ?? members.contains(old)) {
                    detach(old, from: source, nested)
                }
            }
        } else {
            members = current
            append(children, to: &members)
        }
        source.setRelated(at: nested.position, to: members)
        for child in children { attach(child, to: source, nested) }
    }

    /// Up to how many objects a linear search beats building a set (a record nests a few
    /// children as a rule; a payload may nest thousands).
    private static let fewObjects = 16

    /// Appends the `children` that `members` does not hold yet, each once, in order.
    private static func append(_ children: [GraphObject], to members: inout [GraphObject]) {
        if members.count + children.count <= fewObjects {
            for child in children where !members.contains(child) { members.append(child) }
            return
        }
        var present = Set(members)
        for child in children where present.insert(child).inserted { members.append(child) }
    }

    /// Empties the relationship (the payload said `null`).
    static func clear(_ source: GraphObject, _ nested: NestedPlan) {
        source.markAssigned(at: nested.position)
        for old in source.related(at: nested.position) { detach(old, from: source, nested) }
        source.setRelated(at: nested.position, to: [])
    }

    /// Points `child`'s inverse at `source`.
    private static func attach(_ child: GraphObject, to source: GraphObject, _ nested: NestedPlan) {
        guard let inverse = nested.inverse[child.type.index] else { return }
        if inverse.toMany {
            let holders = child.related(at: inverse.position)
            if !holders.contains(source) { child.setRelated(at: inverse.position, to: holders + [source]) }
            return
        }
        if let former = child.relatedObject(at: inverse.position) {
            if former == source { return }
            if let position = former.type.relationshipIndex(nested.name) {
                former.setRelated(at: position, to: former.related(at: position).filter { $0 != child })
            }
        }
        child.setRelated(at: inverse.position, to: source)
    }

    /// Removes `source` from `old`'s inverse.
    private static func detach(_ old: GraphObject, from source: GraphObject, _ nested: NestedPlan) {
        guard let inverse = nested.inverse[old.type.index] else { return }
        old.setRelated(at: inverse.position, to: old.related(at: inverse.position).filter { $0 != source })
    }
}

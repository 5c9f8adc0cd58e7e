/// Sets nested relationships and keeps their inverses consistent: when a
/// project joins a person's `projects`, its `owner` becomes that person (and
/// it leaves its former owner's `projects`).
enum RelationshipLinker {
    /// Sets the relationship to `children`: a to-one takes the first; a to-many
    /// replaces its set or adds to it, as its `assignment` says.
    static func assign(_ children: [GraphObject], to source: GraphObject, _ nested: NestedPlan) {
        let current = source.related[nested.position]
        guard nested.toMany else {
            guard let child = children.first else { return }
            if let old = current.first, old !== child { detach(old, from: source, nested) }
            source.related[nested.position] = [child]
            attach(child, to: source, nested)
            return
        }
        var members: [GraphObject]
        var present = Set<ObjectIdentifier>()
        if nested.replaces {
            members = []
            for child in children where present.insert(ObjectIdentifier(child)).inserted { members.append(child) }
            for old in current where !present.contains(ObjectIdentifier(old)) { detach(old, from: source, nested) }
        } else {
            members = current
            present.formUnion(current.lazy.map(ObjectIdentifier.init))
            for child in children where present.insert(ObjectIdentifier(child)).inserted { members.append(child) }
        }
        source.related[nested.position] = members
        for child in children { attach(child, to: source, nested) }
    }

    /// Empties the relationship (the payload said `null`).
    static func clear(_ source: GraphObject, _ nested: NestedPlan) {
        for old in source.related[nested.position] { detach(old, from: source, nested) }
        source.related[nested.position] = []
    }

    /// Points `child`'s inverse at `source`.
    private static func attach(_ child: GraphObject, to source: GraphObject, _ nested: NestedPlan) {
        guard let inverse = nested.inverse[child.type.index] else { return }
        if inverse.toMany {
            if !child.related[inverse.position].contains(where: { $0 === source }) {
                child.related[inverse.position].append(source)
            }
            return
        }
        if let former = child.related[inverse.position].first {
            if former === source { return }
            if let position = former.type.relationshipIndex(nested.name) {
                former.related[position].removeAll { $0 === child }
            }
        }
        child.related[inverse.position] = [source]
    }

    /// Removes `source` from `old`'s inverse.
    private static func detach(_ old: GraphObject, from source: GraphObject, _ nested: NestedPlan) {
        guard let inverse = nested.inverse[old.type.index] else { return }
        old.related[inverse.position].removeAll { $0 === source }
    }
}

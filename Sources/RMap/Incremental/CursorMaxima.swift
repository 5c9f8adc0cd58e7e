/// The cursors a run advances to: per incremental entity it fetched, the
/// largest `cursor` value among the run's objects of that entity, per parent
/// for an entity fetched per parent (the attributes its payloads' ``Payload/fill`` named).
///
/// A parent (or entity) none of whose objects arrived keeps its stored cursor.
struct CursorMaxima {
    let graph: ObjectGraph
    /// Per entity, the attributes that payloads filled from a parent.
    let fills: [String: Set<String>]

    /// The largest cursor of each of `entity`'s keys in the graph.
    func maxima(of entity: EntityMapping) -> [String: Value] {
        guard let sync = entity.incremental, let type = graph.schema.type(named: entity.name) else { return [:] }
        let filled = (fills[entity.name] ?? []).sorted()
        var largest: [String: Value] = [:]
        for object in graph.objects(of: type) where object.type === type {
            guard let value = object[attribute: sync.cursor], !value.isNull else { continue }
            var fill: [String: Value] = [:]
            for name in filled { fill[name] = object[attribute: name] ?? .null }
            let key = IncrementalCursors.key(entity: entity.name, fill: fill)
            if let current = largest[key], ValueOrdering.compare(value, current) != .orderedDescending { continue }
            largest[key] = value
        }
        return largest
    }
}

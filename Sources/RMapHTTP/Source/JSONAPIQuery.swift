import RMap

/// The query parameters of a JSON:API index request (jsonapi.org, "Fetching Data"): `include`
/// (the relationship paths whose destinations have no source of their own, so they arrive
/// only as included resources), `fields[type]` (the members the mapping reads, attributes and
/// relationships, for every type the request can answer with) and `sort` (the entity's `sort:`,
/// `-` for descending).
///
/// ```
/// GET /people?include=projects,projects.tasks&fields[people]=first-name,email,projects
///     &fields[projects]=name,owner,tasks&fields[tasks]=title,project&sort=last-name
/// ```
enum JSONAPIQuery {
    /// The parameters for fetching `entity`'s index, in a stable order.
    static func items(for entity: EntityMapping, model: MappingModel) -> [(name: String, value: String)] {
        var paths: [String] = []
        var reached = [entity.name]
        includes(of: entity, prefix: "", visiting: [model.root(of: entity).name], model: model, paths: &paths) {
            if !reached.contains($0) { reached.append($0) }
        }
        var items: [(name: String, value: String)] = []
        if !paths.isEmpty { items.append(("include", paths.joined(separator: ","))) }
        var types: [(type: String, members: [String])] = []
        for name in reached {
            for member in model.family(of: model.root(of: model.entity(named: name) ?? entity).name) {
                guard let type = member.jsonAPI?.type else { continue }
                // A type key may make a resource of this type any entity of the family: ask for all their members.
                let fields = (member.typeKey == nil ? [member] : model.family(of: member.name)).flatMap(members(of:))
                let index = types.firstIndex { $0.type == type } ?? types.count
                if index == types.count { types.append((type, [])) }
                for field in fields where !types[index].members.contains(field) { types[index].members.append(field) }
            }
        }
        items += types.filter { !$0.members.isEmpty }.map { ("fields[\($0.type)]", $0.members.joined(separator: ",")) }
        if !entity.sort.isEmpty {
            let keys = entity.sort.map { key in
                (key.descending ? "-" : "") + HTTPSource.queryKey(key.attribute, of: entity, model: model)
            }
            items.append(("sort", keys.joined(separator: ",")))
        }
        return items
    }

    /// Adds the include paths under `entity` to `paths`: each relationship whose destination's
    /// root has no source, then that destination's own, never back into an entity on the path.
    private static func includes(
        of entity: EntityMapping, prefix: String, visiting: [String], model: MappingModel, paths: inout [String],
        reached: (String) -> Void
    ) {
        for relationship in entity.relationships {
            guard let destination = model.entity(named: relationship.destination) else { continue }
            let root = model.root(of: destination)
            guard root.source == nil, !visiting.contains(root.name) else { continue }
            let path = prefix + relationship.key
            if !paths.contains(path) { paths.append(path) }
            reached(destination.name)
            includes(
                of: destination, prefix: path + ".", visiting: visiting + [root.name], model: model, paths: &paths,
                reached: reached)
        }
    }

    /// The members a sparse fieldset keeps for `entity`: its attributes' members (not `id`, not
    /// the resource's `meta`), its type key, and its relationships' members.
    private static func members(of entity: EntityMapping) -> [String] {
        let linked = Set(entity.relationships.map(\.key))
        var members: [String] = []
        let keys = entity.attributes.compactMap(\.keyPath.first) + (entity.typeKey.map { [$0] } ?? [])
        for key in keys + entity.relationships.map(\.key)
        where key != "id" && (key != "meta" || linked.contains(key)) && !members.contains(key) {
            members.append(key)
        }
        return members
    }
}

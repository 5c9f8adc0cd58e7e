import RMap

/// Key paths that may run through lists, as GraphQL's Relay connections nest them:
/// `data.allPeople.edges.node` reaches every edge's node, and `teamMembers.edges.node` every
/// member of one record's nested connection.
enum ListPath {
    /// The values `path` reaches in `value`, every list on the way (and at its end) flattened, in
    /// order; `nil` when a key is missing or a value on the way is neither an object nor a list.
    /// `null`s reached are left out.
    static func values(at path: ArraySlice<String>, in value: JSONValue) -> [JSONValue]? {
        switch value {
        case .null:
            return []
        case .array(let items):
            var reached: [JSONValue] = []
            for item in items {
                guard let values = values(at: path, in: item) else { return nil }
                reached += values
            }
            return reached
        case .object(let object):
            guard let key = path.first else { return [value] }
            guard let next = object[key] else { return nil }
            return values(at: path.dropFirst(), in: next)
        default:
            return path.isEmpty ? [value] : nil
        }
    }

    /// The object that holds the first list `path` runs through (a Relay connection, whose
    /// `pageInfo` sits beside its `edges`), or `nil` when the path reaches no list.
    static func connection(of path: [String], in document: JSONValue) -> JSONObject? {
        var current = document
        for key in path {
            guard let object = current.object, let next = object[key] else { return nil }
            if next.array != nil { return object }
            current = next
        }
        return nil
    }

    /// `record` (of `entity`) with each nested relationship's records where the mapper reads
    /// them: a key path running through lists holds the list of the records it reaches
    /// (`{"teamMembers": {"edges": {"node": [...]}}}`), at every level of nesting.
    static func collapsing(_ record: JSONValue, for entity: EntityMapping, model: MappingModel, depth: Int = 0)
        -> JSONValue
    {
        guard var object = record.object, depth < JSONReader.maxDepth else { return record }
        for relationship in entity.relationships where relationship.connection == nil {
            let path = relationship.keyPath
            guard let destination = model.entity(named: relationship.destination), let value = object[path[0]],
                value != .null, let reached = values(at: path.dropFirst(), in: value)
            else { continue }
            let records = reached.map { collapsing($0, for: destination, model: model, depth: depth + 1) }
            let nested: JSONValue =
                switch (relationship.kind, records.count) {
                case (.toOne, 0): .null
                case (.toOne, 1): records[0]
                default: .array(records)  // more than one for a to-one: the mapper says so
                }
            object[path[0]] = setting(path.dropFirst(), to: nested, in: value)
        }
        return .object(object)
    }

    /// `container` with `value` at `path`, objects made where there are none (a list on the way
    /// gives way to an object).
    private static func setting(_ path: ArraySlice<String>, to value: JSONValue, in container: JSONValue) -> JSONValue {
        guard let key = path.first else { return value }
        var object = container.object ?? JSONObject()
        object[key] = setting(path.dropFirst(), to: value, in: object[key] ?? .null)
        return .object(object)
    }
}

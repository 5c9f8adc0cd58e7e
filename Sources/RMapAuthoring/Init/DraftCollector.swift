import RMap

/// The first pass of ``MappingInference``: finds each payload's records,
/// names their entity, and files every nested object that has an `id` under
/// an entity of its own (one entity per payload key, shared by keys whose
/// objects have nearly the same keys, such as GitHub's `user` and `assignee`).
struct DraftCollector {
    /// The names in use.
    var naming: InferenceNaming
    /// The entities, payloads' own first.
    var drafts: [EntityDraft] = []
    /// What was noticed.
    var notes: [InferenceNote] = []

    /// How alike two objects' key sets must be (shared keys over all keys) to be one entity.
    static let sameShape = 0.8

    /// Collects one payload's records.
    mutating func add(_ sample: PayloadSample) {
        let (records, path, word) = locate(sample.document, baseName: sample.baseName)
        let name = naming.entity(from: word)
        let index = draft(named: name)
        let origin = Self.describe(sample.origin)
        if drafts[index].source == nil {
            drafts[index].source = Self.source(sample.origin)
            drafts[index].records = path
        } else {
            notes.append(.unsure("\(name): records also in \(origin); the mapping fetches only the first payload"))
        }
        notes.append(.inferred("\(name): \(records.count) records in \(origin)\(path.map { " at '\($0)'" } ?? "")"))
        if case .http(_, let path, _, _)? = drafts[index].source, let parent = parentRoute(path) {
            notes.append(
                .unsure("\(name): fetched from \(path) only; 'nested_path: \(parent)' would fetch it for every parent"))
        }
        for record in records {
            if case .object(let object) = record { absorb(object, into: index) }
        }
    }

    // MARK: - Records

    /// The records, their key path when `records:` must say it, and the word naming their entity.
    private func locate(_ document: JSONValue, baseName: String) -> ([JSONValue], String?, String) {
        switch document {
        case .array(let items):
            if let element = Self.commonWrapper(items) {
                return (items.compactMap { $0.object?[element] }, nil, element)
            }
            return (items, nil, baseName)
        case .object(let object):
            if object.members.count == 1, let only = object.members.first {
                if case .array(let items) = only.value { return (items, nil, only.key) }
                if case .object = only.value { return ([only.value], nil, only.key) }
            }
            if let list = object.members.first(where: { Self.isObjectArray($0.value) }) {
                return (list.value.array ?? [], list.key, baseName)
            }
            return ([document], nil, baseName)
        default:
            return ([], nil, baseName)
        }
    }

    /// `person` when every item is `{"person": {...}}` (Rails' `include_root_in_json`).
    private static func commonWrapper(_ items: [JSONValue]) -> String? {
        let keys = Set(
            items.map { item -> String? in
                guard let object = item.object, object.members.count == 1, case .object = object.members[0].value
                else { return nil }
                return object.members[0].key
            })
        guard keys.count == 1, let key = keys.first else { return nil }
        return key
    }

    private static func isObjectArray(_ value: JSONValue) -> Bool {
        guard let items = value.array, !items.isEmpty else { return false }
        return items.allSatisfy { $0.object != nil }
    }

    // MARK: - Nested objects

    private mutating func absorb(_ object: JSONObject, into index: Int) {
        drafts[index].objects.append(object)
        drafts[index].keys.formUnion(object.keys)
        for (key, value) in object.members {
            let children = Self.identified(value)
            guard let first = children.first else { continue }
            let slot = nestedSlot(key, of: index, toMany: value.array != nil, sample: first)
            let child = draft(named: drafts[index].nested[slot].destination)
            for item in children {
                checkBackKey(item, parent: object, slot: slot, of: index)
                absorb(item, into: child)
            }
        }
    }

    /// The objects of a value that are records of their own: an object with `id`, or an array of them.
    private static func identified(_ value: JSONValue) -> [JSONObject] {
        switch value {
        case .object(let object) where object["id"] != nil: return [object]
        case .array(let items) where !items.isEmpty:
            let objects = items.compactMap(\.object)
            return objects.count == items.count && objects.allSatisfy({ $0["id"] != nil }) ? objects : []
        default: return []
        }
    }

    private mutating func nestedSlot(_ key: String, of index: Int, toMany: Bool, sample: JSONObject) -> Int {
        if let slot = drafts[index].nestedIndex(key) { return slot }
        var destination = naming.entity(from: key)
        if !drafts.contains(where: { $0.name == destination }), let alike = sameShape(as: sample) {
            notes.append(.inferred("\(drafts[index].name).\(key): the same objects as \(alike)"))
            destination = alike
        }
        let parentKey = naming.element(of: drafts[index].name) + "_id"
        drafts[index].nested.append(
            EntityDraft.NestedKey(
                key: key, destination: destination, toMany: toMany, backKey: sample[parentKey] == nil ? nil : parentKey)
        )
        return drafts[index].nested.count - 1
    }

    /// The entity whose records have nearly the keys of `object`.
    private func sameShape(as object: JSONObject) -> String? {
        let keys = Set(object.keys)
        return drafts.first { draft in
            let shared = Double(draft.keys.intersection(keys).count)
            return shared / Double(draft.keys.union(keys).count) >= Self.sameShape
        }?.name
    }

    /// Forgets the back key when a child's value is not its parent's identity.
    private mutating func checkBackKey(_ child: JSONObject, parent: JSONObject, slot: Int, of index: Int) {
        guard let key = drafts[index].nested[slot].backKey else { return }
        if child[key] != parent["id"] { drafts[index].nested[slot].backKey = nil }
    }

    private mutating func draft(named name: String) -> Int {
        if let index = drafts.firstIndex(where: { $0.name == name }) { return index }
        drafts.append(EntityDraft(name: name))
        return drafts.count - 1
    }

    // MARK: - Origins

    private static func source(_ origin: PayloadSample.Origin) -> InferredEntity.Source {
        switch origin {
        case .file(let path): return .file(path)
        case .url(let text):
            let parts = URLParts(text)
            let suffix = parts.path.hasSuffix(".json") ? ".json" : ""
            let path = String(parts.path.dropFirst().dropLast(suffix.count))
            return .http(site: parts.site, path: path, suffix: suffix, query: parts.query)
        }
    }

    /// `people/{personId}/projects` for `people/1/projects`: a Rails nested route with the parent's identity.
    private func parentRoute(_ path: String) -> String? {
        let segments = path.split(separator: "/").map(String.init)
        guard let position = segments.firstIndex(where: { Int($0) != nil }), position > 0 else { return nil }
        let inflector = naming.inflector
        let parent = inflector.camelize(inflector.singularize(segments[position - 1]), uppercaseFirstLetter: false)
        var route = segments
        route[position] = "{\(parent)Id}"
        return route.joined(separator: "/")
    }

    /// Where a sample came from, for notes: its path, or its URL with secrets hidden.
    static func describe(_ origin: PayloadSample.Origin) -> String {
        switch origin {
        case .file(let path): path
        case .url(let text): URLParts(text).redacted
        }
    }
}

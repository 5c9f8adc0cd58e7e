import RMap

/// One JSON:API page as payloads: every resource of `data` (one resource or a list) and
/// `included`, each made the record of the entity its `type` names (``JSONAPITypes``,
/// ``JSONAPIRecord``), delivered as one payload per entity, the fetched entity's first.
///
/// A type no entity has is an error naming it, unless the fetched entity has
/// `unknown_type: skip`, which leaves such resources (and linkage to them) out.
struct JSONAPIPage {
    let model: MappingModel
    let types: JSONAPITypes
    private let readers: [String: JSONAPIRecord]

    /// Prepares the readers of every JSON:API entity of `model`.
    init(model: MappingModel) {
        self.model = model
        types = JSONAPITypes(model: model)
        var readers: [String: JSONAPIRecord] = [:]
        for entity in model.entities where entity.jsonAPI != nil {
            readers[entity.name] = JSONAPIRecord(entity: entity, model: model)
        }
        self.readers = readers
    }

    /// The page's records by entity, in the order their entities first appear (`data` first).
    ///
    /// - Throws: ``JSONAPIError`` for a body that is not a JSON:API document, a resource without
    ///   `type` or `id`, an unknown type that `entity` does not skip, or linkage of a wrong type.
    func payloads(
        in document: JSONValue?, for entity: EntityMapping, origin: String, fill: [String: Value]
    ) throws(JSONAPIError) -> [Payload] {
        guard let object = document?.object, let data = object["data"] else {
            throw .notADocument(found: document?.kindName ?? "an array")
        }
        var groups: [(entity: String, records: [JSONValue])] = []
        let primary: [JSONValue] =
            switch data {
            case .array(let items): items
            case .null: []
            default: [data]
            }
        for (part, resources) in [("data", primary), ("included", object["included"]?.array ?? [])] {
            for (index, resource) in resources.enumerated() {
                let place = data.array == nil && part == "data" ? "data" : "\(part)[\(index)]"
                guard let (name, record) = try record(resource, place: place, fetched: entity) else { continue }
                if let position = groups.firstIndex(where: { $0.entity == name }) {
                    groups[position].records.append(record)
                } else {
                    groups.append((name, [record]))
                }
            }
        }
        if !groups.contains(where: { $0.entity == entity.name }) { groups.insert((entity.name, []), at: 0) }
        return groups.map { group in
            Payload(
                origin: origin, entity: group.entity, body: .records(group.records),
                fill: group.entity == entity.name ? fill : [:])
        }
    }

    /// The primary resources of a page, for paging that counts them.
    static func count(in document: JSONValue?) -> Int {
        switch document?.object?["data"] {
        case .array(let items)?: items.count
        case .object?: 1
        default: 0
        }
    }

    /// One resource's entity and record; `nil` when its type is unknown and `fetched` skips such types.
    private func record(
        _ resource: JSONValue, place: String, fetched: EntityMapping
    ) throws(JSONAPIError) -> (String, JSONValue)? {
        guard let object = resource.object, let type = object["type"]?.string else { throw .missingType(place: place) }
        guard let name = types.entity(for: type), let reader = readers[name] else {
            if fetched.unknownType == .skip { return nil }
            let id = object["id"].map { $0.string ?? JSONWriter.serialize($0) } ?? "?"
            throw .unknownType(type: type, id: id, place: place, entity: fetched.name, known: types.names)
        }
        return (name, try reader.record(of: object, place: place, types: types, unknownTypes: fetched.unknownType))
    }
}

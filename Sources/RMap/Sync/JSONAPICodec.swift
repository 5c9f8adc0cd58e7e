/// The push side of JSON:API (jsonapi.org, "Creating, Updating and Deleting Resources"): the
/// requests of an entity whose source has `format: jsonapi`, and how their answers are read.
///
/// - a changed object: `PATCH /people/1` with `{"data": {"type", "id", "attributes": {only the
///   changed ones}, "relationships": {only the changed ones, as linkage}}}`; a to-many's change
///   is its full linkage (`{"data": [{"type", "id"}, ...]}`), read from its hidden attribute;
/// - a new object: `POST /people` with every writable non-null attribute and linkage, and no
///   `id` unless the identity is the client's (a server-assigned integer is left out);
/// - a deleted object: `DELETE /people/1`.
///
/// An entity dispatched by a type key (`type_key:`) writes its family's root type and, on
/// creation, the type key among the attributes. Answers are resource documents: their
/// resource is read as a fetched record (``JSONAPIRecord``), so the server's `id` and values
/// land in the row; a refused write's `errors[]` name the attribute their `source.pointer`
/// points at.
///
/// ```
/// PATCH /people/1 {"data":{"type":"people","id":"1","attributes":{"email":"ada@x"}}}
/// ```
struct JSONAPICodec {
    let entity: SyncSchema.EntitySync
    let sync: SyncSchema
    private let resource: JSONAPIResource

    /// The codec of `entity`, or `nil` when its source does not speak JSON:API.
    init?(entity: SyncSchema.EntitySync, sync: SyncSchema) {
        guard let resource = entity.type.mapping.jsonAPI else { return nil }
        self.entity = entity
        self.sync = sync
        self.resource = resource
    }

    // MARK: - Requests

    /// The request carrying `change`; paths end with `suffix`.
    func request(for change: SyncChange, suffix: String) -> PlannedRequest {
        let home = dispatchRoot.mapping
        let collection = "/\(home.path.hasPrefix("/") ? String(home.path.dropFirst()) : home.path)"
        let member = "\(collection)/\(RequestBuilder.segment(change.identity))\(suffix)"
        switch change.kind {
        case .create:
            return PlannedRequest(
                method: "POST", path: collection + suffix, body: document(change, creating: true), change: change)
        case .update:
            return PlannedRequest(
                method: "PATCH", path: member, body: document(change, creating: false), change: change)
        case .delete:
            return PlannedRequest(method: "DELETE", path: member, body: nil, change: change)
        }
    }

    /// The entity whose type and path the entity's resources have: its family's root when a
    /// type key picks the sub-entity (`kind: Admin` among `people`), else itself.
    private var dispatchRoot: EntityType {
        entity.type.mapping.typeKey == nil ? entity.type : sync.schema.root(of: entity.type)
    }

    /// `{"data": {"type", "id", "attributes", "relationships"}}` with the change's columns.
    private func document(_ change: SyncChange, creating: Bool) -> JSONValue {
        let values = change.values
        var data = JSONObject([("type", .string(dispatchRoot.mapping.jsonAPI?.type ?? resource.type))])
        let identity = Set(entity.table.identity)
        if !creating || change.columns.contains(where: identity.contains) {
            data.members.append(("id", .string(change.identity.map(ValueText.display).joined(separator: "/"))))
        }
        var attributes = JSONObject()
        var relationships = JSONObject()
        let linkages = resource.linkages
        for payload in entity.columns
        where change.columns.contains(payload.column) && !identity.contains(payload.column) {
            guard let attribute = payload.attribute else { continue }
            if let linkage = linkages.first(where: { $0.ids == attribute.name || $0.types == attribute.name }) {
                if relationships[linkage.member] == nil {
                    relationships.members.append(
                        (linkage.member, .object(JSONObject([("data", self.linkage(linkage, values))]))))
                }
            } else {
                RecordCodec.set(
                    RecordCodec(entity: entity).json(values[payload.column], payload), at: payload.keyPath[...],
                    in: &attributes)
            }
        }
        if creating, entity.type.index != entity.type.rootIndex, entity.table.discriminator != nil,
            let key = entity.type.mapping.typeKey, attributes[key] == nil
        {
            attributes.members.append((key, .string(entity.typeValue)))
        }
        if !attributes.members.isEmpty { data.members.append(("attributes", .object(attributes))) }
        if !relationships.members.isEmpty { data.members.append(("relationships", .object(relationships))) }
        return .object(JSONObject([("data", .object(data))]))
    }

    /// The linkage `{"type", "id"}` (or a list of them, or `null`) held by `linkage`'s hidden attributes.
    private func linkage(_ linkage: JSONAPILinkage, _ values: [Value]) -> JSONValue {
        let ids = value(of: linkage.ids, in: values)
        let types = linkage.types.map { value(of: $0, in: values) } ?? .null
        let fallback = sync.schema.type(named: linkage.destination)?.mapping
        let destinationType = fallback?.jsonAPI?.type ?? fallback?.collection ?? linkage.destination
        func identifier(_ id: Value, _ type: Value) -> JSONValue {
            let type = if case .string(let text) = type { text } else { destinationType }
            return .object(JSONObject([("type", .string(type)), ("id", .string(ValueText.display(id)))]))
        }
        switch (linkage.kind, ids) {
        case (_, .null): return linkage.kind == .toOne ? .null : .array([])
        case (.toMany, .array(let items)):
            let kinds = if case .array(let list) = types { list } else { [Value]() }
            return .array(items.enumerated().map { identifier($1, kinds.indices.contains($0) ? kinds[$0] : .null) })
        default: return identifier(ids, types)
        }
    }

    private func value(of attribute: String, in values: [Value]) -> Value {
        guard let index = entity.type.attributeIndex(attribute) else { return .null }
        return values[sync.layout.bindings[entity.type.index].attributeColumns[index]]
    }

    // MARK: - Answers

    /// `values` with the answer's resource laid over (its `id`, attributes and linkage).
    func merging(_ answer: JSONValue, into values: [Value]) -> [Value] {
        let model = sync.schema.model
        guard let data = answer.object?["data"]?.object,
            let record = try? JSONAPIRecord(entity: entity.type.mapping, model: model)
                .record(of: data, place: "data", types: JSONAPITypes(model: model), unknownTypes: .skip)
        else { return values }
        return RecordCodec(entity: entity).merging(record, into: values)
    }

    /// The messages of a refused write's `errors[]`: `firstName: can't be blank` for an error whose
    /// `source.pointer` is `/data/attributes/first-name` (the attribute that member maps to), the
    /// relationship's name for `/data/relationships/...`, the detail alone otherwise.
    func messages(_ answer: JSONValue?) -> [String] {
        guard let errors = answer?.object?["errors"]?.array else { return [] }
        let inflector = sync.schema.model.inflector
        let mapping = entity.type.mapping
        return errors.compactMap(\.object).map { error in
            let text =
                error["detail"]?.string ?? error["title"]?.string ?? error["code"]?.string
                ?? JSONWriter.serialize(.object(error))
            let segments = (error["source"]?.object?["pointer"]?.string ?? "").split(separator: "/").map(String.init)
            guard segments.count >= 3, segments[0] == "data" else { return text }
            let member = inflector.underscore(segments[2])
            let name: String? =
                switch segments[1] {
                case "attributes":
                    mapping.attributes.first { $0.keyPath.first.map(inflector.underscore) == member }?.name
                case "relationships":
                    mapping.relationships.first { inflector.underscore($0.key) == member }?.name
                default: nil
                }
            return "\(name ?? segments[2]): \(text)"
        }
    }
}

/// Turns the JSON:API resource objects of one entity into the records its mapping reads
/// (MAPPING.md §9), the way a Rails payload's records are read:
///
/// ```json
/// {"type": "projects", "id": "7", "attributes": {"name": "Apollo", "starts-on": "2024-01-02"},
///  "relationships": {"owner": {"data": {"type": "people", "id": "3"}}, "tags": {"links": {...}}},
///  "meta": {"rank": 2}}
/// ```
///
/// becomes `{"id": "7", "name": "Apollo", "starts-on": "2024-01-02", "meta": {"rank": 2},
/// "owner": {"id": "3"}}`: `id` as the identity (a string, typed by the mapping), the
/// attributes' members under the keys the mapping gives them (a dasherized, camelCased or
/// underscored member finds its attribute whatever the file's naming), `meta` reachable by key
/// path, and each connected relationship's linkage under its member, in the hidden attributes
/// of ``JSONAPIResource/linkages`` (`{"id", "type"}` for a to-one, `{"ids", "types"}` for a
/// to-many; `data: null` clears, a relationship without `data` is left out, so its link stays).
///
/// ```swift
/// let reader = JSONAPIRecord(entity: project, model: model)
/// let record = try reader.record(of: resource, place: "data[0]", types: JSONAPITypes(model: model))
/// ```
public struct JSONAPIRecord: Sendable {
    /// One connected relationship: its linkage and the entities its identifiers may name.
    private struct Linked: Sendable {
        var linkage: JSONAPILinkage
        var accepted: Set<String>
    }

    /// The entity whose records these are.
    public let entity: String
    private let keys: [String: String]
    private let linked: [String: Linked]
    private let inflector: Inflector

    /// A reader for `entity`'s resources; `model` gives the relationships' destinations' families.
    public init(entity: EntityMapping, model: MappingModel) {
        self.entity = entity.name
        inflector = model.inflector
        let linkages = entity.jsonAPI?.linkages ?? []
        let hidden = Set(linkages.flatMap { [$0.ids] + ($0.types.map { [$0] } ?? []) })
        var keys: [String: String] = [:]
        let mapped = entity.attributes.filter { !hidden.contains($0.name) }.compactMap(\.keyPath.first)
        for key in mapped + (entity.typeKey.map { [$0] } ?? []) {
            keys[key] = key
            keys[inflector.underscore(key)] = keys[inflector.underscore(key)] ?? key
        }
        self.keys = keys
        var linked: [String: Linked] = [:]
        for linkage in linkages {
            let accepted = Set(model.family(of: linkage.destination).map(\.name))
            linked[linkage.member] = Linked(linkage: linkage, accepted: accepted)
            linked[inflector.underscore(linkage.member)] =
                linked[inflector.underscore(linkage.member)] ?? linked[linkage.member]
        }
        self.linked = linked
    }

    /// The record of `resource`, an object whose `type` names this entity.
    ///
    /// - Parameters:
    ///   - place: where the resource is, for messages (`data[2]`, `included[0]`).
    ///   - types: the model's types, which linkage identifiers are checked against.
    ///   - unknownTypes: what an identifier of a type no entity has does: `reject` throws, `skip` leaves it out.
    /// - Throws: ``JSONAPIError`` for a resource without `id`, or linkage to a type outside the destination's family.
    public func record(
        of resource: JSONObject, place: String, types: JSONAPITypes, unknownTypes: UnknownTypePolicy = .reject
    ) throws(JSONAPIError) -> JSONValue {
        let type = resource["type"]?.string ?? ""
        guard let id = resource["id"], id != .null else { throw .missingID(type: type, place: place) }
        var record = JSONObject([("id", id)])
        for member in resource["attributes"]?.object?.members ?? [] where member.key != "id" {
            record.members.append((key(for: member.key), member.value))
        }
        if let meta = resource["meta"], record["meta"] == nil { record.members.append(("meta", meta)) }
        for member in resource["relationships"]?.object?.members ?? [] {
            guard let linked = linked[member.key] ?? linked[inflector.underscore(member.key)],
                let data = member.value.object?["data"]
            else { continue }
            let value = try linkage(data, of: linked, place: place, types: types, unknownTypes: unknownTypes)
            if let value { record.members.append((linked.linkage.member, value)) }
        }
        return .object(record)
    }

    /// The mapping's key for an attribute member: the member itself, or the mapped key it inflects to.
    private func key(for member: String) -> String {
        keys[member] ?? keys[inflector.underscore(member)] ?? member
    }

    /// `{"id", "type"}` or `{"ids", "types"}` for a relationship's `data`; `nil` when it names only
    /// a to-one of an unknown type that `unknownTypes` skips.
    private func linkage(
        _ data: JSONValue, of linked: Linked, place: String, types: JSONAPITypes, unknownTypes: UnknownTypePolicy
    ) throws(JSONAPIError) -> JSONValue? {
        let linkage = linked.linkage
        let identifiers: [JSONObject]
        switch data {
        case .object(let identifier): identifiers = [identifier]
        case .array(let items): identifiers = items.compactMap(\.object)
        default: identifiers = []
        }
        var ids: [JSONValue] = []
        var kinds: [JSONValue] = []
        for identifier in identifiers {
            let type = identifier["type"]?.string ?? ""
            guard let entity = types.entity(for: type) else {
                if unknownTypes == .skip { continue }
                throw .unknownType(
                    type: type, id: identifier["id"].map(Self.text) ?? "?",
                    place: "\(place).relationships.\(linkage.member)",
                    entity: self.entity, known: types.names)
            }
            guard linked.accepted.contains(entity) else {
                throw .linkageType(
                    entity: self.entity, relationship: linkage.relationship, type: type,
                    destination: linkage.destination)
            }
            ids.append(identifier["id"] ?? .null)
            kinds.append(.string(type))
        }
        var members: [(key: String, value: JSONValue)] = []
        if linkage.kind == .toOne {
            if ids.isEmpty, !identifiers.isEmpty { return nil }
            members.append((linkage.idsKey, ids.first ?? .null))
            if linkage.types != nil { members.append((linkage.typesKey, kinds.first ?? .null)) }
        } else {
            members.append((linkage.idsKey, .array(ids)))
            if linkage.types != nil { members.append((linkage.typesKey, .array(kinds))) }
        }
        return .object(JSONObject(members))
    }

    private static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let text), .number(let text): text
        default: JSONWriter.serialize(value)
        }
    }
}

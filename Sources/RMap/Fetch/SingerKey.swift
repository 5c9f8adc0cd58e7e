/// The identity of an entity that reads a Singer stream and declares none: the
/// values of the stream's `key_properties` (from its `SCHEMA` message), kept in
/// the attribute `singerKey` (column `singer_key`) as a JSON array, e.g.
/// `["data/people.csv",2]`.
///
/// The loader adds the attribute to such entities (``addIdentity(to:)``); the
/// Singer reader fills it in each record (``stamp(_:keyProperties:)``).
enum SingerKey {
    /// The attribute's name.
    static let attribute = "singerKey"
    /// The record key the reader adds.
    static let recordKey = "_singer_key"

    /// Gives `entity` the `singerKey` identity when it has none and reads a Singer
    /// stream (a `stream:` key, a `singer` source, or a `stdin` source with `format: singer`).
    static func addIdentity(to entity: inout EntityMapping) {
        guard entity.identity.isEmpty, readsSinger(entity) else { return }
        var key = AttributeMapping(
            name: attribute, type: .string, keyPath: [recordKey], column: "singer_key", mark: entity.mark)
        key.readonly = true
        entity.attributes.append(key)
        entity.identity = [attribute]
    }

    /// Whether the entity's records come from a Singer stream, as far as its mapping file says.
    static func readsSinger(_ entity: EntityMapping) -> Bool {
        entity.stream != nil || (entity.source.map(SingerReader.isSinger) ?? false)
    }

    /// Whether the entity's identity is the `singerKey`, to be filled from `key_properties`.
    static func isIdentity(of entity: EntityMapping) -> Bool {
        entity.identity == [attribute]
    }

    /// The record with `_singer_key` added: the JSON array of its `keyProperties` values
    /// (`nil` when one is missing, which the mapper then rejects as an incomplete identity).
    static func stamp(_ record: JSONValue, keyProperties: [String]) -> JSONValue {
        guard let object = record.object else { return record }
        let values = keyProperties.map { object[$0] }
        guard !values.contains(where: { $0 == nil || $0 == .null }) else { return record }
        var members = object.members
        members.append((recordKey, .string(JSONWriter.serialize(.array(values.compactMap { $0 })))))
        return .object(JSONObject(members))
    }
}

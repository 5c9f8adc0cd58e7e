/// Records keyed by a dictionary key (`records: { key_as: login }`): each member
/// of an object is a record, its key going into the attribute named, as
/// RestKit's `addAttributeMappingFromKeyOfRepresentationToAttribute:`.
///
/// ```json
/// {"users": {"alice": {"id": 1}, "bob": {"id": 2}}}
/// ```
///
/// gives the records `{"id": 1, "login": "alice"}` and `{"id": 2, "login": "bob"}`.
enum KeyedRecords {
    /// The records of `document`: the members of the object at `records:`'s `path`, or without
    /// one, of the object under the collection key (`users`), else of the document itself.
    ///
    /// - Throws: ``FetchError`` when the path leads nowhere or to something other than an object.
    static func records(
        in document: JSONValue, for entity: EntityMapping, attribute: String, origin: String
    ) throws(FetchError) -> [JSONValue] {
        let container: JSONValue
        if let path = entity.records {
            container = try RecordSelection.value(at: path, in: document, for: entity, origin: origin)
        } else if entity.root != .bare, case .object(let object) = document,
            let wrapped = object[entity.collection], case .object = wrapped
        {
            container = wrapped
        } else {
            container = document
        }
        switch container {
        case .null:
            return []
        case .object(let keyed):
            let keyPath = entity.attribute(named: attribute)?.keyPath ?? [attribute]
            return keyed.members.map { member in
                guard case .object(var record) = member.value else { return member.value }
                set(&record, keyPath[...], to: .string(member.key))
                return .object(record)
            }
        default:
            throw FetchError(
                origin: origin,
                message:
                    "expected an object of \(entity.name) records keyed by '\(attribute)', found \(container.kindName)")
        }
    }

    /// Sets the value at a key path, making the objects on the way.
    private static func set(_ object: inout JSONObject, _ path: ArraySlice<String>, to value: JSONValue) {
        guard let key = path.first else { return }
        guard path.count > 1 else {
            object[key] = value
            return
        }
        var inner = object[key]?.object ?? JSONObject()
        set(&inner, path.dropFirst(), to: value)
        object[key] = .object(inner)
    }
}

/// Finds the records in a parsed payload document (MAPPING.md §2, `records:`
/// and the Rails wrappers). Sources use it too, to count a page's records the
/// way the mapper will.
public enum RecordSelection {
    /// The records of `document` for `entity`, in order.
    ///
    /// - With `records:` set, the value at that key path: an array is the
    ///   records, an object is one record, `null` is none.
    /// - Otherwise a top-level array is the records. With `root: wrapped` or
    ///   `auto`, an object holding the collection key with an array
    ///   (`{"people": [...]}`, other keys such as `meta` ignored) is the
    ///   records, as is an object whose only key holds an array
    ///   (ActiveResource's rule, whatever the key), and any other object is one record (`{"person": {...}}` is
    ///   unwrapped record by record). `root: bare` never looks for wrappers:
    ///   an object is one record.
    ///
    /// - Throws: ``FetchError`` when `records:` leads nowhere, the document
    ///   is neither an array nor an object, or it is an object without the
    ///   entity's identity that holds an array of objects (`records:` is missing).
    public static func records(
        in document: JSONValue, for entity: EntityMapping, origin: String
    ) throws(FetchError) -> [JSONValue] {
        if let attribute = entity.recordsKeyAs {
            return try KeyedRecords.records(in: document, for: entity, attribute: attribute, origin: origin)
        }
        if let path = entity.records {
            let written = path.joined(separator: ".")
            let current = try value(at: path, in: document, for: entity, origin: origin)
            switch current {
            case .array(let items): return items
            case .object: return [current]
            case .null: return []
            default:
                throw FetchError(
                    origin: origin,
                    message: "expected records at '\(written)' for \(entity.name), found \(current.kindName)")
            }
        }
        switch document {
        case .array(let items):
            return items
        case .object(let object):
            if entity.root != .bare, case .array(let items)? = object[entity.collection] { return items }
            if entity.root != .bare, object.members.count == 1, case .array(let items) = object.members[0].value {
                return items
            }
            try checkLoneRecord(object, for: entity, origin: origin)
            return [document]
        default:
            throw FetchError(
                origin: origin,
                message: "expected a JSON array or object of \(entity.name) records, found \(document.kindName)")
        }
    }

    /// An object read as one record must look like one: when it has none of the entity's identity
    /// keys but holds an array of objects, those are its records, and `records:` says where.
    ///
    /// - Throws: ``FetchError`` naming the key: `add 'records: items' to Issue`.
    private static func checkLoneRecord(
        _ object: JSONObject, for entity: EntityMapping, origin: String
    ) throws(FetchError) {
        let identityKeys = entity.identity.compactMap { entity.attribute(named: $0)?.keyPath.first }
        guard !identityKeys.isEmpty, identityKeys.allSatisfy({ object[$0] == nil }) else { return }
        for (key, value) in object.members {
            guard case .array(let items) = value, items.first?.object != nil else { continue }
            let missing = identityKeys.joined(separator: "', '")
            throw FetchError(
                origin: origin,
                message: "the payload is one object without \(entity.name)'s '\(missing)'; its '\(key)' holds "
                    + "\(items.count) objects: if they are the records, add 'records: \(key)' to \(entity.name)")
        }
    }

    /// The value at `records:`'s key path.
    ///
    /// - Throws: ``FetchError`` when the path leads nowhere.
    static func value(
        at path: [String], in document: JSONValue, for entity: EntityMapping, origin: String
    ) throws(FetchError) -> JSONValue {
        var current = document
        for key in path {
            guard case .object(let object) = current, let next = object[key] else {
                throw FetchError(
                    origin: origin,
                    message:
                        "no records at '\(path.joined(separator: "."))' for \(entity.name) (records: in the mapping)")
            }
            current = next
        }
        return current
    }
}

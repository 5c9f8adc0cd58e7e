import RMap

/// Counts the records of one page the way the mapper selects them, so that
/// paging can stop on a short or empty page.
///
/// With `records:` the array at that key path; otherwise a top-level array, the
/// array under an object's only key (ActiveResource's `{"people": [...]}`), or
/// one record for any other object (`{"person": {...}}` or a bare record).
enum PageRecords {
    static func count(in document: JSONValue, for entity: EntityMapping) -> Int {
        if let path = entity.records {
            var value: JSONValue? = document
            for key in path { value = value?.object?[key] }
            switch value {
            case .array(let items)?: return items.count
            case .object?: return 1
            default: return 0
            }
        }
        switch document {
        case .array(let items):
            return items.count
        case .object(let object):
            if object.members.count == 1, let items = object.members[0].value.array { return items.count }
            return 1
        default:
            return 0
        }
    }
}

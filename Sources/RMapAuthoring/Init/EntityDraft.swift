import RMap

/// What ``DraftCollector`` gathers for one entity before its attributes are inferred.
struct EntityDraft {
    /// A key whose objects became another entity's records.
    struct NestedKey {
        /// The payload key: `tasks`.
        var key: String
        /// The destination entity.
        var destination: String
        /// True for an array of objects.
        var toMany: Bool
        /// The child's key holding the parent's identity (`project_id`), while every child agrees.
        var backKey: String?
    }

    /// The entity's name.
    var name: String
    /// Where its records come from; `nil` for records only seen nested.
    var source: InferredEntity.Source?
    /// The key path to the records, when the default would not find them.
    var records: String?
    /// Every record seen, in order.
    var objects: [JSONObject] = []
    /// Every key seen on a record.
    var keys: Set<String> = []
    /// The keys holding nested records, in the order first seen.
    var nested: [NestedKey] = []

    /// The nested key `key`'s position.
    func nestedIndex(_ key: String) -> Int? {
        nested.firstIndex { $0.key == key }
    }
}

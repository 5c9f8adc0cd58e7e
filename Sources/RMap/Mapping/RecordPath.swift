/// Where a record sits inside its top-level record (`projects.1`), spelled out
/// only when an error names it: most records have none, and a string per
/// nested record cost the mapping thread a formatting and an allocation each.
struct RecordPath {
    /// The key path of the relationship that holds the record (`nil`: top level).
    var key: String?
    /// The record's position in that relationship's array.
    var offset: Int?

    var text: String? {
        guard let key else { return nil }
        return offset.map { "\(key).\($0)" } ?? key
    }

    /// The key path of `key` in the record at this path: `projects.1.name`, or `name` at the top.
    func joined(_ key: String) -> String {
        text.map { "\($0).\(key)" } ?? key
    }
}

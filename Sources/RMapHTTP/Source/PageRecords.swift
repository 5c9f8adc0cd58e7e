import RMap

/// Counts the records of one page the way the mapper selects them
/// (``RecordSelection``), so that paging can stop on a short or empty page.
enum PageRecords {
    static func count(in document: JSONValue, for entity: EntityMapping) -> Int {
        (try? RecordSelection.records(in: document, for: entity, origin: "").count) ?? 0
    }
}

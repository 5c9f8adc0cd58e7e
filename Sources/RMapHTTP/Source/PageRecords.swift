import RMap

/// Counts the records of one page the way the mapper selects them
/// (``RecordSelection``), so that paging can stop on a short or empty page.
enum PageRecords {
    static func count(in document: JSONValue, for entity: EntityMapping) -> Int {
        (try? RecordSelection.records(in: document, for: entity, origin: "").count) ?? 0
    }

    /// The records of a page: in its parsed `document`, or the top-level array in `spool`.
    static func count(document: JSONValue?, spool: SpoolFile, for entity: EntityMapping) async throws -> Int {
        guard let document else { return try await spool.arrayCount() }
        return count(in: document, for: entity)
    }

    /// The page's last record, as the mapper selects them.
    static func last(in document: JSONValue, for entity: EntityMapping) -> JSONValue? {
        (try? RecordSelection.records(in: document, for: entity, origin: ""))?.last
    }
}

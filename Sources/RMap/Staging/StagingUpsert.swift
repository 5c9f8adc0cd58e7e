/// The statement that merges staged occurrences into a table's merged rows as they come
/// (``RowCollapse/stagingUpsert``), around a `VALUES` list of rows of ``width`` values.
struct StagingUpsert: Sendable {
    /// Values per occurrence.
    let width: Int
    let head: String
    let tail: String

    /// The statement over a `VALUES (?, ...), ...` list.
    func sql(_ values: String) -> String { head + values + tail }
}

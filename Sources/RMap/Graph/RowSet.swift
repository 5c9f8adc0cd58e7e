/// A set of a table's row numbers, one bit a row: what a million-object run
/// can mark without a heap value per member.
///
/// ```swift
/// var listed = RowSet()
/// listed.insert(7)
/// listed.contains(7)  // true
/// ```
struct RowSet {
    private var words: [UInt64] = []

    /// True when no row was inserted.
    private(set) var isEmpty = true

    /// Adds `row` (not negative).
    mutating func insert(_ row: Int) {
        let word = row >> 6
        if word >= words.count { words.append(contentsOf: repeatElement(0, count: word + 1 - words.count)) }
        words[word] |= 1 << UInt64(row & 63)
        isEmpty = false
    }

    /// Whether `row` was inserted.
    func contains(_ row: Int) -> Bool {
        let word = row >> 6
        return word < words.count && words[word] & (1 << UInt64(row & 63)) != 0
    }
}

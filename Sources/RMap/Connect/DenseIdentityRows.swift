/// Rows by lone integer identity over the identities' range: one array read a
/// lookup, where the table's identity map (``IntegerIdentityIndex``) reads a
/// bucket, the row's location and its packed identity (three places in memory).
///
/// Built only when the identities lie close together (the usual ids `1...n`),
/// so the array holds at most about two slots a row: 4 bytes each, what the
/// identity map's half-full buckets cost.
struct DenseIdentityRows {
    /// The smallest identity: the key of slot 0.
    private let base: Int64
    /// The row of `base + slot` (-1: none).
    private let rows: [Int32]

    /// The rows of `table`'s lone integer identities, or `nil` when their range is too wide.
    ///
    /// - Complexity: O(n) in the table's rows (two passes over their identities).
    init?(_ table: ObjectTable) {
        var lowest = Int64.max
        var highest = Int64.min
        var count = 0
        table.forEachIntegerIdentity { _, identity in
            lowest = min(lowest, identity)
            highest = max(highest, identity)
            count += 1
        }
        guard count > 0 else { return nil }
        let (span, overflow) = highest.subtractingReportingOverflow(lowest)
        guard !overflow, span < 2 * Int64(count) + 1024 else { return nil }
        var rows = [Int32](repeating: -1, count: Int(span) + 1)
        table.forEachIntegerIdentity { row, identity in rows[Int(identity - lowest)] = Int32(row) }
        base = lowest
        self.rows = rows
    }

    /// The row whose identity is `identity`.
    func row(identity: Int64) -> Int32? {
        let (slot, overflow) = identity.subtractingReportingOverflow(base)
        guard !overflow, slot >= 0, slot < Int64(rows.count) else { return nil }
        let row = rows[Int(slot)]
        return row < 0 ? nil : row
    }
}

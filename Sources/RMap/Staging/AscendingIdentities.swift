/// Whether the occurrences staged in one table so far came with their identities in strictly
/// ascending order, which proves at no cost that no identity came twice: a file or an API listed
/// by id, the common case. Then each occurrence is its object's row, whole, and ``RowCollapse``
/// copies the occurrences instead of looking for later ones of the same identity (on PostgreSQL,
/// a join of the occurrences with themselves: 17 s of a first import of ten million tasks).
///
/// Only a proof: identities out of order may still all differ, and are then merged as before.
/// Keys are compared as staged (``CanonicalKey``), whole numbers by value and text by its
/// characters; any other key (null, or mixed kinds) ends the proof.
struct AscendingIdentities {
    /// Where the identity's keys are in a staged row.
    private let keys: Range<Int>
    /// Whether every occurrence staged so far came after the one before it.
    private(set) var holds: Bool
    /// The last occurrence's keys.
    private var last: ArraySlice<Value> = []

    init(_ stage: StageTable) {
        keys = stage.firstKey..<(stage.firstKey + stage.keyColumns.count)
        holds = !keys.isEmpty
    }

    /// Follows a batch of staged rows (``StageTable/stageColumns`` order), in the order staged.
    mutating func note(_ rows: [[Value]]) {
        guard holds, let final = rows.last else { return }
        var previous = last
        for row in rows {
            let current = row[keys]
            guard previous.isEmpty || Self.precedes(previous, current) else {
                holds = false
                return
            }
            previous = current
        }
        last = final[keys]
    }

    /// Whether `earlier` comes strictly before `later`, key by key; false for keys of which no
    /// order is known.
    private static func precedes(_ earlier: ArraySlice<Value>, _ later: ArraySlice<Value>) -> Bool {
        for (left, right) in zip(earlier, later) {
            switch (left, right) {
            case (.int(let a), .int(let b)) where a != b: return a < b
            case (.string(let a), .string(let b)) where a != b: return a < b
            case (.int, .int), (.string, .string): continue
            default: return false
            }
        }
        return false
    }
}

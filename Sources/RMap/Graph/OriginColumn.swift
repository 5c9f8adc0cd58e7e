/// Where each row of a table got its values: the payload's number and the
/// record's index in it.
///
/// Rows added from one payload follow each other, so payload numbers are kept
/// as runs (the first row of each run and its payload), and only rows that a
/// later payload touched again keep a number of their own: 4 bytes a row
/// instead of 8.
struct OriginColumn {
    private var records = ChunkedColumn<Int32>()
    private var runStarts: [Int32] = []
    private var runSources: [Int32] = []
    /// Rows whose payload is not their run's.
    private var exceptions: [Int32: Int32] = [:]

    /// Adds the origin of a new row (payload -1: none; record -1: not a record's).
    mutating func append(source: Int32, record: Int32) {
        if runSources.last != source {
            runStarts.append(Int32(records.count))
            runSources.append(source)
        }
        records.append(record)
    }

    /// The payload number and record index of `row`.
    subscript(row: Int) -> (source: Int32, record: Int32) {
        (exceptions[Int32(row)] ?? runSource(of: row), records[row])
    }

    /// Sets the origin of an existing row.
    mutating func set(_ row: Int, source: Int32, record: Int32) {
        records[row] = record
        exceptions[Int32(row)] = source == runSource(of: row) ? nil : source
    }

    /// The payload of the run holding `row` (binary search over the runs).
    private func runSource(of row: Int) -> Int32 {
        var low = 0
        var high = runStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if Int(runStarts[middle]) <= row { low = middle } else { high = middle - 1 }
        }
        return runSources[low]
    }
}

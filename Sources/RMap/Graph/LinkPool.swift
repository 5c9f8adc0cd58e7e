/// The links of one to-many slot of a table: each row's destination rows as
/// a span of one shared array, instead of an array (and its 32-byte header)
/// per row.
///
/// A row's span is rewritten in place when the new links fit in it and moved
/// to the end of the pool otherwise; the bytes it leaves stay until the graph
/// goes (links are set about once a row: by connect, or by a nested payload).
struct LinkPool {
    private var pool = ChunkedColumn<Int32>()
    private var starts = ChunkedColumn<UInt32>()
    private var counts = ChunkedColumn<UInt32>()

    /// Adds a row without links.
    mutating func addRow() {
        starts.append(0)
        counts.append(0)
    }

    /// The destination rows of `row`, in order.
    func links(of row: Int) -> [Int32] {
        let count = Int(counts[row])
        guard count > 0 else { return [] }
        let start = Int(starts[row])
        return (start..<start + count).map { pool[$0] }
    }

    /// The first destination row of `row`.
    func first(of row: Int) -> Int32? {
        counts[row] == 0 ? nil : pool[Int(starts[row])]
    }

    /// Sets the destination rows of `row`.
    mutating func setLinks(of row: Int, to destinations: some Collection<Int32>) {
        if destinations.count > Int(counts[row]) {
            starts[row] = UInt32(pool.count)
            pool.append(contentsOf: destinations)
        } else {
            let start = Int(starts[row])
            for (offset, destination) in destinations.enumerated() { pool[start + offset] = destination }
        }
        counts[row] = UInt32(destinations.count)
    }
}

/// Whether a table merged while staging (``RowCollapse/stagingUpsert``) still receives its
/// identities in an order its rows can take as they come.
///
/// Its merged rows are kept in the order of a whole-number identity (SQLite's rowid). Identities
/// that come in order, or in a few interleaved ascending runs, land on a few pages at a time;
/// identities at random land all over a table larger than the engine's cache, a page read and
/// written for most of them (N = 100,000 nested with shuffled task ids: 2.2M reads and 1.1M writes
/// of the temporary file, 5.5 s of system time). Once a batch comes at random, the table's later
/// occurrences are staged as they come and merged in identity order at once
/// (``RowCollapse/mergeOutOfOrder(on:)``): the engine sorts them, reading and writing its
/// temporary files in long runs. Every occurrence staged afterwards is later than every one
/// already merged, so the last one still wins.
struct StagingKeyOrder {
    /// Where the identity's whole-number key is in a staged row.
    let keyPosition: Int
    /// Whether a batch came at random: from then on, the table's occurrences are staged.
    private(set) var isOutOfOrder = false
    /// The keys staged so far: how many, the lowest and the highest.
    private var count = 0
    private var lowest = Int64.max
    private var highest = Int64.min

    /// Rows of about 150 bytes on the engine's 8 KiB pages.
    private static let rowsPerPage = 64.0

    init(keyPosition: Int) {
        self.keyPosition = keyPosition
    }

    /// Whether `rows` go into the merged rows now (true), or into the occurrences (false): false
    /// from the first batch whose keys fall on more pages of the rows than a quarter of its rows.
    /// A key's page is guessed from the keys staged so far, spread evenly between the lowest and
    /// the highest: keys in order, or in a few interleaved ascending runs, share a page by dozens;
    /// keys at random take one each once the rows are many times the pages in a batch (a table
    /// that small stays in the engine's cache, where order does not matter).
    mutating func admits(_ rows: [[Value]]) -> Bool {
        guard !isOutOfOrder else { return false }
        let keys = rows.compactMap { row -> Int64? in
            if case .int(let key) = row[keyPosition] { key } else { nil }
        }.sorted()
        guard let first = keys.first, let last = keys.last else { return true }
        count += keys.count
        lowest = min(lowest, first)
        highest = max(highest, last)
        let keysPerPage = Self.rowsPerPage * (Double(highest) - Double(lowest) + 1) / Double(count)
        var pages = 0
        var page = -1.0
        for key in keys {
            let current = ((Double(key) - Double(lowest)) / keysPerPage).rounded(.down)
            if current != page {
                pages += 1
                page = current
            }
        }
        isOutOfOrder = pages * 4 > keys.count
        return !isOutOfOrder
    }
}

/// A growable column of values in fixed blocks of 65,536, for per-object
/// columns of a graph table.
///
/// An array doubles its capacity as it grows, so a column of 300,000 values
/// may hold room for 524,288, and copies itself at each doubling; blocks cost
/// at most one partly used block and are never copied.
struct ChunkedColumn<Element> {
    private static var blockSize: Int { 1 << 16 }

    private var blocks: [[Element]] = []
    /// How many values the column holds.
    private(set) var count = 0

    /// Adds a value at the end.
    mutating func append(_ value: Element) {
        if count % Self.blockSize == 0 {
            var block: [Element] = []
            block.reserveCapacity(Self.blockSize)
            blocks.append(block)
        }
        blocks[blocks.count - 1].append(value)
        count += 1
    }

    /// Adds values at the end.
    mutating func append(contentsOf values: some Sequence<Element>) {
        for value in values { append(value) }
    }

    /// The value at `index`.
    subscript(index: Int) -> Element {
        get { blocks[index / Self.blockSize][index % Self.blockSize] }
        set { blocks[index / Self.blockSize][index % Self.blockSize] = newValue }
    }
}

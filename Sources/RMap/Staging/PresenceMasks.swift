/// The presence bits of one staged row, by slot (``StageTable/bit(of:)``): the first mask is
/// kept inline, so that a row of at most 62 slots, the usual one, allocates nothing for them.
struct PresenceMasks {
    private var first: Int64 = 0
    private var others: [Int64]

    /// `count` masks, every bit clear.
    init(count: Int) {
        others = count > 1 ? Array(repeating: 0, count: count - 1) : []
    }

    /// Marks `slot` present.
    mutating func insert(_ slot: Int) {
        let (mask, bit) = StageTable.bit(of: slot)
        if mask == 0 { first |= bit } else { others[mask - 1] |= bit }
    }

    /// Mask `index`'s bits.
    subscript(index: Int) -> Int64 { index == 0 ? first : others[index - 1] }
}

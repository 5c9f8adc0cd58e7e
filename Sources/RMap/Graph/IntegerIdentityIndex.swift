/// Rows by lone integer identity (the usual `id`): an open-addressing hash
/// table whose buckets hold a row number and the top 32 bits of its key's
/// hash, 8 bytes a bucket.
///
/// The keys are not stored: a bucket's key is read from its row (`keyOf`),
/// which the table's values already hold. A dictionary of `Int64` to `Int32`
/// costs three times as much a row, the largest part of a graph of small objects.
/// The hash bits spare the rows' values but where a key may match: a miss, the
/// usual lookup of a new record, reads no row, and growing, moving a run back
/// after a removal, never read one (a random read each, when the keys came from rows).
/// Linear probing, at most half full; removal shifts the run back.
struct IntegerIdentityIndex {
    /// `row + 1` in the low 32 bits (0: empty), the key's hash's top 32 bits above.
    private var buckets = [UInt64](repeating: 0, count: 16)
    private var count = 0

    /// The row whose key is `key`.
    func row(for key: Int64, keyOf: (Int32) -> Int64?) -> Int32? {
        let hash = Self.hash(key)
        var bucket = home(of: hash)
        while buckets[bucket] != 0 {
            let row = Self.row(in: buckets[bucket])
            if Self.hash(in: buckets[bucket]) == hash, keyOf(row) == key { return row }
            bucket = (bucket + 1) & (buckets.count - 1)
        }
        return nil
    }

    /// Makes `row` the row of `key` (replacing another row with that key).
    mutating func set(_ row: Int32, for key: Int64, keyOf: (Int32) -> Int64?) {
        if (count + 1) * 2 > buckets.count { grow() }
        let hash = Self.hash(key)
        let entry = UInt64(hash) << 32 | UInt64(UInt32(row) + 1)
        var bucket = home(of: hash)
        while buckets[bucket] != 0 {
            let held = Self.row(in: buckets[bucket])
            if held == row || (Self.hash(in: buckets[bucket]) == hash && keyOf(held) == key) {
                buckets[bucket] = entry
                return
            }
            bucket = (bucket + 1) & (buckets.count - 1)
        }
        buckets[bucket] = entry
        count += 1
    }

    /// Forgets `row` as the row of `key`.
    mutating func remove(_ row: Int32, for key: Int64) {
        var bucket = home(of: Self.hash(key))
        while Self.row(in: buckets[bucket]) != row {
            guard buckets[bucket] != 0 else { return }
            bucket = (bucket + 1) & (buckets.count - 1)
        }
        buckets[bucket] = 0
        count -= 1
        // Move later members of the run whose home is not between the hole and them into the hole.
        var hole = bucket
        var next = (bucket + 1) & (buckets.count - 1)
        while buckets[next] != 0 {
            let home = home(of: Self.hash(in: buckets[next]))
            let distanceToNext = (next - home) & (buckets.count - 1)
            let distanceToHole = (hole - home) & (buckets.count - 1)
            if distanceToHole < distanceToNext || distanceToHole == 0 {
                buckets[hole] = buckets[next]
                buckets[next] = 0
                hole = next
            }
            next = (next + 1) & (buckets.count - 1)
        }
    }

    /// The top 32 bits of a multiplicative (Fibonacci) hash of `key`.
    private static func hash(_ key: Int64) -> UInt32 {
        UInt32(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> 32)
    }

    private static func hash(in entry: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: entry >> 32) }

    private static func row(in entry: UInt64) -> Int32 { Int32(bitPattern: UInt32(truncatingIfNeeded: entry) &- 1) }

    /// The bucket a hash starts probing at: its top bits.
    private func home(of hash: UInt32) -> Int {
        Int(hash >> UInt32(32 - buckets.count.trailingZeroBitCount))
    }

    /// Doubles the buckets: each entry's hash bits say where it goes, so the old buckets are
    /// read in order and the new ones written nearly in order.
    private mutating func grow() {
        let old = buckets
        buckets = [UInt64](repeating: 0, count: old.count * 2)
        for entry in old where entry != 0 {
            var bucket = home(of: Self.hash(in: entry))
            while buckets[bucket] != 0 { bucket = (bucket + 1) & (buckets.count - 1) }
            buckets[bucket] = entry
        }
    }
}

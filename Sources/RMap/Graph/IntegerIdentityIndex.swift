/// Rows by lone integer identity (the usual `id`): an open-addressing hash
/// table that stores only row numbers, 4 bytes a bucket.
///
/// The keys are not stored: a bucket's key is read from its row (`keyOf`),
/// which the table's values already hold. A dictionary of `Int64` to `Int32`
/// costs three times as much a row, the largest part of a graph of small objects.
/// Linear probing, at most half full (a miss, the usual lookup of a new
/// record, then reads about two rows); removal shifts the run back.
struct IntegerIdentityIndex {
    private var buckets = [Int32](repeating: -1, count: 16)
    private var count = 0

    /// The row whose key is `key`.
    func row(for key: Int64, keyOf: (Int32) -> Int64?) -> Int32? {
        var bucket = home(of: key)
        while buckets[bucket] >= 0 {
            if keyOf(buckets[bucket]) == key { return buckets[bucket] }
            bucket = (bucket + 1) & (buckets.count - 1)
        }
        return nil
    }

    /// Makes `row` the row of `key` (replacing another row with that key).
    mutating func set(_ row: Int32, for key: Int64, keyOf: (Int32) -> Int64?) {
        if (count + 1) * 2 > buckets.count { grow(keyOf: keyOf) }
        var bucket = home(of: key)
        while buckets[bucket] >= 0 {
            if buckets[bucket] == row || keyOf(buckets[bucket]) == key {
                buckets[bucket] = row
                return
            }
            bucket = (bucket + 1) & (buckets.count - 1)
        }
        buckets[bucket] = row
        count += 1
    }

    /// Forgets `row` as the row of `key`.
    mutating func remove(_ row: Int32, for key: Int64, keyOf: (Int32) -> Int64?) {
        var bucket = home(of: key)
        while buckets[bucket] != row {
            guard buckets[bucket] >= 0 else { return }
            bucket = (bucket + 1) & (buckets.count - 1)
        }
        buckets[bucket] = -1
        count -= 1
        // Move later members of the run whose home is not between the hole and them into the hole.
        var hole = bucket
        var next = (bucket + 1) & (buckets.count - 1)
        while buckets[next] >= 0 {
            let home = keyOf(buckets[next]).map(home(of:)) ?? next
            let distanceToNext = (next - home) & (buckets.count - 1)
            let distanceToHole = (hole - home) & (buckets.count - 1)
            if distanceToHole < distanceToNext || distanceToHole == 0 {
                buckets[hole] = buckets[next]
                buckets[next] = -1
                hole = next
            }
            next = (next + 1) & (buckets.count - 1)
        }
    }

    private func home(of key: Int64) -> Int {
        let bits = buckets.count.trailingZeroBitCount
        return Int((UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bits))
    }

    /// Doubles the buckets, reading the keys in row order (the rows' values lie in that order),
    /// which a bitmap of the rows gives without sorting them.
    private mutating func grow(keyOf: (Int32) -> Int64?) {
        var present = [Bool](repeating: false, count: Int(buckets.max() ?? -1) + 1)
        for row in buckets where row >= 0 { present[Int(row)] = true }
        buckets = [Int32](repeating: -1, count: buckets.count * 2)
        count = 0
        for (row, isPresent) in present.enumerated() where isPresent {
            guard let key = keyOf(Int32(row)) else { continue }
            var bucket = home(of: key)
            while buckets[bucket] >= 0 { bucket = (bucket + 1) & (buckets.count - 1) }
            buckets[bucket] = Int32(row)
            count += 1
        }
    }
}

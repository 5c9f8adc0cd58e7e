import Testing

@testable import RMap

/// ``IntegerIdentityIndex`` against a dictionary: the same answers through growth,
/// removals (which shift probe runs back) and replaced rows.
@Suite("Graph: integer identity index")
struct IntegerIdentityIndexTests {
    /// The keys of rows, as a graph table holds them (a removed row keeps no key).
    private struct Rows {
        var keys: [Int64?] = []
        func key(_ row: Int32) -> Int64? { keys[Int(row)] }
    }

    @Test("finds every key it holds and none it does not, through 60,000 changes")
    func matchesADictionary() {
        var generator = SplitMix64(seed: 16)
        var rows = Rows()
        var index = IntegerIdentityIndex()
        var model: [Int64: Int32] = [:]
        // Keys a step apart, keys that share their low 40 bits, and the extremes.
        let pool: [Int64] =
            (0..<20_000).map { Int64($0) } + (0..<20_000).map { Int64($0) << 40 }
            + [Int64.min, Int64.max, -1]
        for _ in 0..<60_000 {
            let key = pool[Int(generator.next() % UInt64(pool.count))]
            if let row = model[key], generator.next() % 3 == 0 {
                index.remove(row, for: key)
                rows.keys[Int(row)] = nil
                model[key] = nil
            } else if model[key] == nil {
                let row = Int32(rows.keys.count)
                rows.keys.append(key)
                index.set(row, for: key, keyOf: rows.key)
                model[key] = row
            }
        }
        for key in pool { #expect(index.row(for: key, keyOf: rows.key) == model[key], "key \(key)") }
        #expect(index.row(for: 20_000, keyOf: rows.key) == nil)
    }

    @Test("keys whose hashes share their top 32 bits are told apart by the keys their rows hold")
    func hashCollisions() {
        // `key * C` and `(key + C⁻¹) * C` differ by one (mod 2^64): the same top 32 bits.
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var inverse: UInt64 = 1
        for _ in 0..<6 { inverse = inverse &* (2 &- multiplier &* inverse) }
        let keys = (0..<8).map { Int64(bitPattern: 12_345 &+ UInt64($0) &* inverse) }
        var rows = Rows(keys: keys)
        var index = IntegerIdentityIndex()
        for row in keys.indices { index.set(Int32(row), for: keys[row], keyOf: rows.key) }
        for row in keys.indices { #expect(index.row(for: keys[row], keyOf: rows.key) == Int32(row)) }
        index.remove(2, for: keys[2])
        rows.keys[2] = nil
        #expect(index.row(for: keys[2], keyOf: rows.key) == nil)
        #expect(index.row(for: keys[7], keyOf: rows.key) == 7)
    }

    @Test("setting a key's row again replaces the row, and the old row no longer answers")
    func replacesARow() {
        var rows = Rows(keys: [7, 7])
        var index = IntegerIdentityIndex()
        index.set(0, for: 7, keyOf: rows.key)
        index.set(1, for: 7, keyOf: rows.key)
        #expect(index.row(for: 7, keyOf: rows.key) == 1)
        rows.keys[0] = nil
        index.remove(0, for: 7)
        #expect(index.row(for: 7, keyOf: rows.key) == 1, "removing a row the key no longer has keeps the key")
    }
}

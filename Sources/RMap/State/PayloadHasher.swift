/// ``PayloadHash``'s rounds fed piece by piece: combining the pieces of a payload in order gives
/// the hash of the whole, while holding at most 31 bytes of it.
///
/// ```swift
/// var hasher = PayloadHasher()
/// hasher.combine(firstChunk)
/// hasher.combine(secondChunk)
/// let hash = hasher.finalize()
/// ```
struct PayloadHasher {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5
    private static let stripe = 32

    private var lanes = (prime1 &+ prime2, prime2, UInt64(0), 0 &- prime1)
    /// Bytes folded into the lanes so far (whole stripes).
    private var folded = 0
    /// The bytes after the last whole stripe, fewer than 32.
    private var pending: [UInt8] = []

    /// Adds the next piece of the payload.
    mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        var rest = bytes[...]
        if !pending.isEmpty {
            let taken = rest.prefix(Self.stripe - pending.count)
            pending.append(contentsOf: taken)
            rest = rest.dropFirst(taken.count)
            guard pending.count == Self.stripe else { return }
            _ = pending.withUnsafeBytes { foldStripes($0) }
            pending.removeAll(keepingCapacity: true)
        }
        let whole = UnsafeRawBufferPointer(rebasing: rest)
        let used = foldStripes(whole)
        pending.append(contentsOf: whole[used...])
    }

    /// The hash of every byte combined so far.
    func finalize() -> UInt64 {
        var hash: UInt64
        if folded > 0 {
            hash =
                Self.rotate(lanes.0, 1) &+ Self.rotate(lanes.1, 7) &+ Self.rotate(lanes.2, 12)
                &+ Self.rotate(lanes.3, 18)
            for lane in [lanes.0, lanes.1, lanes.2, lanes.3] {
                hash = (hash ^ Self.round(0, lane)) &* Self.prime1 &+ Self.prime4
            }
        } else {
            hash = Self.prime5
        }
        hash &+= UInt64(folded + pending.count)
        pending.withUnsafeBytes { tail in
            var offset = 0
            while offset + 8 <= tail.count {
                hash = Self.rotate(hash ^ Self.round(0, Self.word(tail, offset)), 27) &* Self.prime1 &+ Self.prime4
                offset += 8
            }
            while offset < tail.count {
                hash = Self.rotate(hash ^ (UInt64(tail[offset]) &* Self.prime5), 11) &* Self.prime1
                offset += 1
            }
        }
        hash ^= hash >> 33
        hash &*= Self.prime2
        hash ^= hash >> 29
        hash &*= Self.prime3
        return hash ^ (hash >> 32)
    }

    /// Folds the whole stripes at the start of `bytes` into the lanes.
    ///
    /// - Returns: the number of bytes folded, a multiple of 32.
    @discardableResult
    private mutating func foldStripes(_ bytes: UnsafeRawBufferPointer) -> Int {
        var offset = 0
        while offset + Self.stripe <= bytes.count {
            lanes.0 = Self.round(lanes.0, Self.word(bytes, offset))
            lanes.1 = Self.round(lanes.1, Self.word(bytes, offset + 8))
            lanes.2 = Self.round(lanes.2, Self.word(bytes, offset + 16))
            lanes.3 = Self.round(lanes.3, Self.word(bytes, offset + 24))
            offset += Self.stripe
        }
        folded += offset
        return offset
    }

    @inline(__always)
    private static func word(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always)
    private static func round(_ lane: UInt64, _ input: UInt64) -> UInt64 {
        rotate(lane &+ input &* prime2, 31) &* prime1
    }

    @inline(__always)
    private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
        (value << bits) | (value >> (64 - bits))
    }
}

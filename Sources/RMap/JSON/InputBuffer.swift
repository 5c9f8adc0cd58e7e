/// A growable byte buffer that keeps simdjson's padding after its bytes and
/// lets a reader drop the bytes it is done with.
final class InputBuffer {
    private(set) var storage: UnsafeMutableRawBufferPointer
    /// Bytes held, from `storage`'s start.
    private(set) var count = 0

    /// Creates a buffer that holds `capacity` bytes before growing.
    init(capacity: Int) {
        storage = .allocate(byteCount: capacity + InputBuffer.padding, alignment: 64)
    }

    deinit { storage.deallocate() }

    /// Readable bytes the parser needs past the last one.
    static let padding = 64

    /// Bytes the buffer holds before it must grow.
    var capacity: Int { storage.count - InputBuffer.padding }

    /// The bytes held.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: storage[..<count]) }

    /// The free space after the bytes held.
    var free: UnsafeMutableRawBufferPointer { UnsafeMutableRawBufferPointer(rebasing: storage[count..<capacity]) }

    /// Counts `length` bytes written into ``free``.
    func commit(_ length: Int) { count += length }

    /// Appends bytes, growing as needed.
    func append(_ bytes: UnsafeRawBufferPointer) {
        reserve(count + bytes.count)
        free.copyMemory(from: bytes)
        count += bytes.count
    }

    /// Drops the first `length` bytes, moving the rest to the start.
    func drop(_ length: Int) {
        guard length > 0, let base = storage.baseAddress else { return }
        count -= length
        if count > 0 { base.copyMemory(from: base + length, byteCount: count) }
    }

    /// Grows so that `total` bytes fit.
    func reserve(_ total: Int) {
        guard total > capacity else { return }
        let grown = UnsafeMutableRawBufferPointer.allocate(
            byteCount: max(total, capacity * 2) + InputBuffer.padding, alignment: 64)
        grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: storage[..<count]))
        storage.deallocate()
        storage = grown
    }
}

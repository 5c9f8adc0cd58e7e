/// The attribute values of a table's objects, packed as bytes in large chunks.
///
/// A row of values (`[Value?]`, one per attribute) is written once as a
/// compact byte form (see ``PackedValueWriter``) and read back on demand, so
/// a million objects cost their values' bytes rather than a million arrays
/// of 24-byte enums. Rewriting a row appends a new form; the old bytes stay
/// until the graph goes (an object is rewritten only when a later record of
/// the run carries it again).
struct ValueArena {
    /// Where a row's bytes are: the chunk in the high 32 bits, the offset in the low.
    typealias Location = UInt64

    private static let chunkSize = 1 << 20

    private var chunks: [[UInt8]] = []
    /// Writes each row's form, and keeps the values the form holds by reference (JSON).
    private var writer = PackedValueWriter()
    private var boxes: [JSONValue] { writer.boxes }

    /// Stores a row and returns where it is.
    mutating func append(_ values: [Value?]) -> Location {
        writer.write(values)
        let form = writer.bytes
        if chunks.isEmpty || chunks[chunks.count - 1].count + form.count > Self.chunkSize {
            var chunk: [UInt8] = []
            chunk.reserveCapacity(max(Self.chunkSize, form.count))
            chunks.append(chunk)
        }
        let chunk = chunks.count - 1
        let offset = chunks[chunk].count
        chunks[chunk].append(contentsOf: form)
        return UInt64(chunk) << 32 | UInt64(offset)
    }

    /// The row stored at `location`.
    func values(at location: Location) -> [Value?] {
        read(location) { reader in
            let count = reader.count()
            var values: [Value?] = []
            values.reserveCapacity(count)
            for _ in 0..<count { values.append(reader.value(boxes: boxes)) }
            return values
        }
    }

    /// Calls `body` with each value of the row at `location` that is not missing, and its position.
    func forEachValue(at location: Location, _ body: (Int, Value) -> Void) {
        read(location) { reader in
            for position in 0..<reader.count() {
                if let value = reader.value(boxes: boxes) { body(position, value) }
            }
        }
    }

    /// One value of the row stored at `location`: `nil` when missing or beyond the row.
    func value(at location: Location, position: Int) -> Value? {
        read(location) { reader in
            guard position < reader.count() else { return nil }
            for _ in 0..<position { reader.skip() }
            return reader.value(boxes: boxes)
        }
    }

    /// One value of the row stored at `location` when it is an integer.
    func integer(at location: Location, position: Int) -> Int64? {
        read(location) { reader in
            guard position < reader.count() else { return nil }
            for _ in 0..<position { reader.skip() }
            return reader.integer()
        }
    }

    private func read<T>(_ location: Location, _ body: (inout PackedValueReader) -> T) -> T {
        let chunk = Int(location >> 32)
        let offset = Int(location & 0xFFFF_FFFF)
        return chunks[chunk].withUnsafeBufferPointer { bytes in
            var reader = PackedValueReader(bytes: bytes, offset: offset)
            return body(&reader)
        }
    }
}

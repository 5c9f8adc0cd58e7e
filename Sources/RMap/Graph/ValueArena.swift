/// The attribute values of a table's objects, packed as bytes in large chunks.
///
/// A row of values (`[Value?]`, one per attribute) is written once as a
/// compact byte form (see ``PackedValueWriter``) and read back on demand, so
/// a million objects cost their values' bytes rather than a million arrays
/// of 24-byte enums. Rewriting a row appends a new form; the old bytes stay
/// until the graph goes (an object is rewritten only when a later record of
/// the run carries it again).
///
/// Setting one value (``set(_:position:at:)``) rewrites its bytes in place
/// when the new form has the old one's size, and otherwise appends a patch:
/// the position, the location it lies over and the value. A row's location
/// then points at its newest patch (the ``patchBit`` set); reads look through
/// the patches before the row, and a row with ``patchLimit`` patches is
/// rewritten whole at the next set.
struct ValueArena {
    /// Where a row's bytes are: the chunk in the high 32 bits (below ``patchBit``), the offset in the low.
    typealias Location = UInt64

    private static let chunkSize = 1 << 20
    /// The bit of a location that points at a patch rather than a row.
    private static let patchBit: Location = 1 << 63
    /// How many patches may lie over a row before a set rewrites it whole.
    static let patchLimit = 8

    private var chunks: [[UInt8]] = []
    /// Writes each row's form, and keeps the values the form holds by reference (JSON).
    private var writer = PackedValueWriter()
    private var boxes: [JSONValue] { writer.boxes }

    /// How many bytes the rows and patches take.
    var byteCount: Int { chunks.reduce(0) { $0 + $1.count } }

    /// Stores a row and returns where it is.
    mutating func append(_ values: [Value?]) -> Location {
        writer.write(values)
        return store(writer.bytes)
    }

    /// Sets the value at `position` of the row at `location` (`nil`: missing).
    ///
    /// - Returns: the row's location from now on (the same one when set in place).
    mutating func set(_ value: Value?, position: Int, at location: Location) -> Location {
        if patchCount(at: location) >= Self.patchLimit {
            var values = values(at: location)
            values[position] = value
            return append(values)
        }
        let start = writer.write(patch: value, position: position, base: location)
        let form = writer.bytes[start...]
        if let old = self.start(of: position, at: location), read(old, { $0.formLength() }) == form.count {
            let (chunk, offset) = Self.split(old)
            chunks[chunk].replaceSubrange(offset..<offset + form.count, with: form)
            return location
        }
        return store(writer.bytes) | Self.patchBit
    }

    /// The row stored at `location`.
    func values(at location: Location) -> [Value?] {
        var patches: [(position: Int, start: Location)] = []
        var row = location
        while row & Self.patchBit != 0 {
            let (header, start) = patchHeader(at: row)
            patches.append((header.position, start))
            row = header.base
        }
        var values = read(row) { reader in
            let count = reader.count()
            var values: [Value?] = []
            values.reserveCapacity(count)
            for _ in 0..<count { values.append(reader.value(boxes: boxes)) }
            return values
        }
        for patch in patches.reversed() where patch.position < values.count {
            values[patch.position] = read(patch.start) { $0.value(boxes: boxes) }
        }
        return values
    }

    /// Calls `body` with each value of the row at `location` that is not missing, and its position.
    func forEachValue(at location: Location, _ body: (Int, Value) -> Void) {
        guard location & Self.patchBit == 0 else {
            for (position, value) in values(at: location).enumerated() { if let value { body(position, value) } }
            return
        }
        read(location) { reader in
            for position in 0..<reader.count() {
                if let value = reader.value(boxes: boxes) { body(position, value) }
            }
        }
    }

    /// One value of the row stored at `location`: `nil` when missing or beyond the row.
    func value(at location: Location, position: Int) -> Value? {
        start(of: position, at: location).flatMap { start in read(start) { $0.value(boxes: boxes) } }
    }

    /// One value of the row stored at `location` when it is an integer.
    func integer(at location: Location, position: Int) -> Int64? {
        start(of: position, at: location).flatMap { start in read(start) { $0.integer() } }
    }

    /// How many patches lie over the row at `location`.
    private func patchCount(at location: Location) -> Int {
        var count = 0
        var row = location
        while row & Self.patchBit != 0 {
            count += 1
            row = patchHeader(at: row).header.base
        }
        return count
    }

    /// Where the form of the value at `position` starts (in the newest patch setting it, else in
    /// the row): `nil` when the row has no such position.
    private func start(of position: Int, at location: Location) -> Location? {
        var row = location
        while row & Self.patchBit != 0 {
            let (header, start) = patchHeader(at: row)
            if header.position == position { return start }
            row = header.base
        }
        return read(row) { reader in
            guard position < reader.count() else { return nil }
            for _ in 0..<position { reader.skip() }
            return Self.place(in: row, offset: reader.offset)
        }
    }

    /// The header of the patch at `location` and where its value's form starts.
    private func patchHeader(at location: Location) -> (header: (position: Int, base: Location), start: Location) {
        read(location) { reader in
            let header = reader.patchHeader()
            return (header, Self.place(in: location, offset: reader.offset))
        }
    }

    private mutating func store(_ form: [UInt8]) -> Location {
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

    /// The location at `offset` in the chunk of `location`.
    private static func place(in location: Location, offset: Int) -> Location {
        location & 0x7FFF_FFFF_0000_0000 | UInt64(offset)
    }

    /// The chunk and offset of a location.
    private static func split(_ location: Location) -> (chunk: Int, offset: Int) {
        (Int((location & ~patchBit) >> 32), Int(location & 0xFFFF_FFFF))
    }

    private func read<T>(_ location: Location, _ body: (inout PackedValueReader) -> T) -> T {
        let (chunk, offset) = Self.split(location)
        return chunks[chunk].withUnsafeBufferPointer { bytes in
            var reader = PackedValueReader(bytes: bytes, offset: offset)
            return body(&reader)
        }
    }
}

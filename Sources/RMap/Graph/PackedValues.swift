/// The byte form of a row of values in a ``ValueArena``.
///
/// A row is its count (a varint) followed by each value: a tag byte, then
/// the payload. Integers, dates (days since 1970) and datetimes
/// (milliseconds) are zigzag varints, doubles their 8 bytes, strings and
/// decimals a varint length and their UTF-8, arrays a varint count and their
/// members; JSON values are kept aside and referred to by number. A patch
/// (one value set later) is a varint position, the 8 bytes of the location
/// it lies over, and the value.
private enum PackedTag: UInt8 {
    case missing, null, falseValue, trueValue, int, double, decimal, string, date, datetime, array, json
}

/// Writes rows in the byte form, one at a time into ``bytes`` (reused), keeping
/// every JSON value in ``boxes``.
struct PackedValueWriter {
    /// The last row written.
    private(set) var bytes: [UInt8] = []
    /// The JSON values of every row written, by their number in the form.
    private(set) var boxes: [JSONValue] = []

    /// Makes ``bytes`` the form of `values`.
    mutating func write(_ values: [Value?]) {
        bytes.removeAll(keepingCapacity: true)
        writeVarint(UInt64(values.count))
        for value in values {
            if let value { write(value) } else { bytes.append(PackedTag.missing.rawValue) }
        }
    }

    /// Makes ``bytes`` a patch of a row (see ``ValueArena``): `position`, the 8 bytes of `base`,
    /// then the form of `value` (`nil`: missing).
    ///
    /// - Returns: where the value's form starts in ``bytes``.
    mutating func write(patch value: Value?, position: Int, base: UInt64) -> Int {
        bytes.removeAll(keepingCapacity: true)
        writeVarint(UInt64(position))
        withUnsafeBytes(of: base.littleEndian) { bytes.append(contentsOf: $0) }
        let start = bytes.count
        if let value { write(value) } else { bytes.append(PackedTag.missing.rawValue) }
        return start
    }

    private mutating func write(_ value: Value) {
        switch value {
        case .null: bytes.append(PackedTag.null.rawValue)
        case .bool(let flag): bytes.append(flag ? PackedTag.trueValue.rawValue : PackedTag.falseValue.rawValue)
        case .int(let number): writeSigned(number, tag: .int)
        case .double(let number):
            bytes.append(PackedTag.double.rawValue)
            withUnsafeBytes(of: number.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        case .decimal(let number): writeText(number.text, tag: .decimal)
        case .string(let text): writeText(text, tag: .string)
        case .date(let date): writeSigned(Int64(date.daysSinceEpoch), tag: .date)
        case .datetime(let stamp): writeSigned(stamp.milliseconds, tag: .datetime)
        case .array(let items):
            bytes.append(PackedTag.array.rawValue)
            writeVarint(UInt64(items.count))
            for item in items { write(item) }
        case .json(let json):
            bytes.append(PackedTag.json.rawValue)
            writeVarint(UInt64(boxes.count))
            boxes.append(json)
        }
    }

    private mutating func writeSigned(_ number: Int64, tag: PackedTag) {
        bytes.append(tag.rawValue)
        writeVarint(UInt64(bitPattern: (number << 1) ^ (number >> 63)))
    }

    private mutating func writeText(_ text: String, tag: PackedTag) {
        bytes.append(tag.rawValue)
        var text = text
        text.withUTF8 { utf8 in
            writeVarint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    private mutating func writeVarint(_ number: UInt64) {
        var rest = number
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }
}

/// Reads rows of the byte form, value by value; JSON values are looked up in
/// `boxes`, given only where a whole value is read.
struct PackedValueReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset: Int

    /// The row's value count (read first).
    mutating func count() -> Int { Int(readVarint()) }

    /// A patch's position and base (read first; the patch's value follows).
    mutating func patchHeader() -> (position: Int, base: UInt64) {
        let position = Int(readVarint())
        return (position, readFixed64())
    }

    /// The next value if it is an integer (any other value is passed over).
    mutating func integer() -> Int64? {
        guard bytes[offset] == PackedTag.int.rawValue else {
            skip()
            return nil
        }
        offset += 1
        return readSigned()
    }

    /// The next value: `nil` for a missing one.
    mutating func value(boxes: [JSONValue]) -> Value? {
        let tag = PackedTag(rawValue: bytes[offset]) ?? .missing
        offset += 1
        switch tag {
        case .missing: return nil
        case .null: return .null
        case .falseValue: return .bool(false)
        case .trueValue: return .bool(true)
        case .int: return .int(readSigned())
        case .double: return .double(Double(bitPattern: readFixed64()))
        case .decimal: return .decimal(DecimalNumber(validated: readText()))
        case .string: return .string(readText())
        case .date: return .date(LocalDate(daysSinceEpoch: Int(readSigned())))
        case .datetime: return .datetime(Timestamp(milliseconds: readSigned()))
        case .array:
            let count = Int(readVarint())
            var items: [Value] = []
            items.reserveCapacity(count)
            for _ in 0..<count { items.append(value(boxes: boxes) ?? .null) }
            return .array(items)
        case .json: return .json(boxes[Int(readVarint())])
        }
    }

    /// The size of the next value's form (passed over).
    mutating func formLength() -> Int {
        let start = offset
        skip()
        return offset - start
    }

    /// Passes over the next value.
    mutating func skip() {
        let tag = PackedTag(rawValue: bytes[offset]) ?? .missing
        offset += 1
        switch tag {
        case .missing, .null, .falseValue, .trueValue: break
        case .int, .date, .datetime, .json: _ = readVarint()
        case .double: offset += 8
        case .decimal, .string: offset += Int(readVarint())
        case .array: for _ in 0..<readVarint() { skip() }
        }
    }

    /// 8 little-endian bytes.
    private mutating func readFixed64() -> UInt64 {
        var number: UInt64 = 0
        for shift in 0..<8 { number |= UInt64(bytes[offset + shift]) << (8 * shift) }
        offset += 8
        return number
    }

    private mutating func readSigned() -> Int64 {
        let zigzag = readVarint()
        return Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1)
    }

    private mutating func readText() -> String {
        let length = Int(readVarint())
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
        offset += length
        return text
    }

    private mutating func readVarint() -> UInt64 {
        var number: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = bytes[offset]
            offset += 1
            number |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return number }
            shift += 7
        }
    }
}

internal import RMapJSONC

/// One value read from a payload file by ``JSONFileStream``.
public struct JSONStreamItem: Sendable {
    /// The value.
    public var value: JSONValue
    /// The 0-based element index in a top-level array, or the 0-based index
    /// among the non-blank lines of a JSON Lines file; 0 for a whole document.
    public var index: Int
    /// True when the file's top-level value is not an array and this is all of it.
    public var isWholeDocument: Bool
    /// The 1-based line where the value starts.
    public var line: Int?

    /// Creates an item.
    public init(value: JSONValue, index: Int, isWholeDocument: Bool, line: Int?) {
        self.value = value
        self.index = index
        self.isWholeDocument = isWholeDocument
        self.line = line
    }
}

/// Streams the records of a payload file without holding the whole file.
///
/// - A top-level array yields each element in turn.
/// - A path ending `.jsonl` or `.ndjson` yields the value of each non-blank line.
/// - Any other top-level value (an object) is yielded once, whole, with
///   ``JSONStreamItem/isWholeDocument`` set; only this case reads the whole file.
///
/// The file is read in chunks (1 MiB by default) and each complete element is
/// parsed by simdjson, so memory stays bounded by the chunk and the largest element.
///
/// ```swift
/// try JSONFileStream(path: "payloads/people.json").forEach { item in
///     print(item.index, item.value.object?["name"] ?? .null)
/// }
/// ```
public struct JSONFileStream: Sendable {
    /// The file read.
    public let path: String
    private let chunkSize: Int

    /// Creates a stream over the file at `path`.
    ///
    /// - Throws: ``JSONError`` when the file cannot be opened.
    public init(path: String) throws(JSONError) {
        try self.init(path: path, chunkSize: 1 << 20)
    }

    /// Creates a stream that reads `chunkSize` bytes at a time.
    init(path: String, chunkSize: Int) throws(JSONError) {
        _ = try FileReader(path: path)
        self.path = path
        self.chunkSize = chunkSize
    }

    /// Calls `body` with each value of the file, in order.
    ///
    /// Values before an error in the file are delivered before the error is thrown.
    ///
    /// - Throws: ``JSONError`` when the file cannot be read or is not valid JSON
    ///   (naming the path, line and column), or whatever `body` throws.
    public func forEach(_ body: (JSONStreamItem) throws -> Void) throws {
        let file = try FileReader(path: path)
        let buffer = InputBuffer(capacity: chunkSize)
        let parser = try NativeJSONParser(origin: path)
        var atEnd = try file.fill(buffer)
        let bom = buffer.bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        buffer.drop(bom)
        var stream = rmj_stream()
        if path.hasSuffix(".jsonl") || path.hasSuffix(".ndjson") {
            stream.split = Int32(RMJ_SPLIT_LINES)
        } else {
            let first = try firstValueByte(file: file, buffer: buffer, atEnd: &atEnd)
            guard first == UInt8(ascii: "[") else {
                while !atEnd {
                    buffer.reserve(buffer.count + chunkSize)
                    atEnd = try file.fill(buffer)
                }
                let value = try parser.parseDocument(buffer, origin: path)
                let line = buffer.bytes.prefix { $0 != first }.count { $0 == 0x0A } + 1
                try body(JSONStreamItem(value: value, index: 0, isWholeDocument: true, line: line))
                return
            }
            stream.split = Int32(RMJ_SPLIT_ARRAY)
        }
        var base = bom
        while true {
            let first = stream.count
            let batch = parser.parseBatch(buffer, stream: &stream, atEnd: atEnd, origin: path, base: base)
            for item in 0..<batch.items {
                let value = parser.value(at: item)
                let line = parser.line(ofItem: item)
                try body(JSONStreamItem(value: value, index: first + item, isWholeDocument: false, line: line))
            }
            if let error = batch.error { throw error }
            if atEnd { return }
            buffer.drop(batch.consumed)
            base += batch.consumed
            if buffer.free.count < max(chunkSize / 2, 1) { buffer.reserve(buffer.count + chunkSize) }
            atEnd = try file.fill(buffer)
        }
    }

    /// Reads until the first byte that is not whitespace, which decides how the file streams.
    private func firstValueByte(file: FileReader, buffer: InputBuffer, atEnd: inout Bool) throws(JSONError)
        -> UInt8?
    {
        while true {
            if let byte = buffer.bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return byte }
            if atEnd { return nil }
            buffer.reserve(buffer.count + chunkSize)
            atEnd = try file.fill(buffer)
        }
    }
}

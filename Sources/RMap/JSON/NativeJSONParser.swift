internal import RMapJSONC

/// Owns one simdjson parser (through the RMapJSONC C face) and turns its
/// tokens into ``JSONValue`` trees. Not thread-safe: use one per task.
///
/// Why simdjson, by measurement (`scripts/json-bench`, a 50 MB top-level array of
/// 165,626 records of ~300 bytes with a nested object, arrays, decimals and
/// datetimes; release build, 2-core Debian 12 machine, quiet):
///
/// | producing `JSONValue` trees                      | MB/s | records/s | peak RSS |
/// |--------------------------------------------------|-----:|----------:|---------:|
/// | Foundation `JSONSerialization` (to `Any` only)   |   11 |     36 k  |  1.27 GB |
/// | yajl, Swift builder on its SAX callbacks         |   75 |    250 k  |   332 MB |
/// | yajl parse alone, no tree (its ceiling)          |  359 |        –  |    66 MB |
/// | simdjson → tokens → tree, whole file in memory   |   55 |    182 k  |   558 MB |
/// | simdjson, ``JSONFileStream`` (1 MiB chunks)      |  140 |    465 k  |    21 MB |
/// | same, JSON Lines                                 |  138 |    460 k  |    21 MB |
///
/// Under load from other processes the figures halve but the order holds
/// (stream 52 MB/s, yajl builder 24 MB/s). The C++ side walks simdjson's On
/// Demand API into a flat token array with one string arena, so Swift builds each
/// tree in one tight loop instead of a call per event; that, not the parse, is
/// most of the cost (simdjson's stage 1 uses the CPU's best kernels at run time,
/// and compiling for AVX2 changed nothing measurable). A whole 50 MB document is
/// slower than streaming because one giant tree and token array are page-fault and
/// malloc bound; payload files stream.
final class NativeJSONParser {
    private let handle: OpaquePointer

    /// Creates a parser that refuses arrays and objects nested deeper than `maxDepth`.
    ///
    /// - Throws: ``JSONError`` naming `origin` when memory is short.
    init(origin: String, maxDepth: Int = JSONReader.maxDepth) throws(JSONError) {
        guard let handle = rmj_parser_new() else {
            throw JSONError(origin: origin, message: "out of memory")
        }
        rmj_set_max_depth(handle, maxDepth)
        self.handle = handle
    }

    deinit { rmj_parser_free(handle) }

    /// Parses the whole of `buffer` as one document.
    func parseDocument(_ buffer: InputBuffer, origin: String) throws(JSONError) -> JSONValue {
        let code = rmj_parse_document(
            handle, buffer.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), buffer.count,
            buffer.capacity + InputBuffer.padding)
        if Int(code) != RMJ_OK {
            throw error(code: code, in: buffer.bytes, origin: origin, base: 0, lineBreaks: 0, column: 0)
        }
        return value(at: 0)
    }

    /// Parses the complete values at the start of `buffer`, advancing `stream`.
    ///
    /// - Returns: the bytes consumed, the number of items parsed, and the error
    ///   that stopped the batch, if any (items before it are still valid).
    func parseBatch(_ buffer: InputBuffer, stream: inout rmj_stream, atEnd: Bool, origin: String, base: Int)
        -> (consumed: Int, items: Int, error: JSONError?)
    {
        let start = stream
        var consumed = 0
        let code = rmj_parse_batch(
            handle, &stream, buffer.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), buffer.count,
            buffer.capacity + InputBuffer.padding, atEnd ? 1 : 0, &consumed)
        var count = 0
        _ = rmj_items(handle, &count)
        guard Int(code) != RMJ_OK else { return (consumed, count, nil) }
        let error = error(
            code: code, in: buffer.bytes, origin: origin, base: base, lineBreaks: start.line_breaks,
            column: start.column)
        return (consumed, count, error)
    }

    /// The 1-based line where the `index`th item of the last parse starts.
    func line(ofItem index: Int) -> Int {
        var count = 0
        return rmj_items(handle, &count)[index].line
    }

    /// Builds the `index`th item of the last parse.
    func value(at index: Int) -> JSONValue {
        var count = 0
        let item = rmj_items(handle, &count)[index]
        var reader = TokenReader(tokens: rmj_tokens(handle), arena: rmj_arena(handle), index: item.first_token)
        return reader.next()
    }

    private func error(
        code: Int32, in bytes: UnsafeRawBufferPointer, origin: String, base: Int, lineBreaks: Int, column: Int
    ) -> JSONError {
        var offset = rmj_error_offset(handle)
        if Int(code) == RMJ_INVALID_UTF8 { offset = BytePosition.firstInvalidUTF8(in: bytes, from: offset) ?? offset }
        return JSONError(
            origin: origin, message: String(cString: rmj_error_message(handle)), bytes: bytes, offset: offset,
            base: base, lineBreaks: lineBreaks, column: column)
    }
}

/// Reads preorder tokens back into a value tree.
private struct TokenReader {
    let tokens: UnsafePointer<rmj_token>
    let arena: UnsafePointer<UInt8>?
    var index: Int

    mutating func next() -> JSONValue {
        let token = tokens[index]
        index += 1
        switch Int(token.kind) {
        case RMJ_STRING: return .string(text(token))
        case RMJ_NUMBER: return .number(text(token))
        case RMJ_OBJECT:
            var members: [(key: String, value: JSONValue)] = []
            members.reserveCapacity(Int(token.length))
            for _ in 0..<token.length {
                let key = tokens[index]
                index += 1
                let value = next()
                if Int(key.kind) != RMJ_SUPERSEDED { members.append((text(key), value)) }
            }
            return .object(JSONObject(members))
        case RMJ_ARRAY:
            var items: [JSONValue] = []
            items.reserveCapacity(Int(token.length))
            for _ in 0..<token.length { items.append(next()) }
            return .array(items)
        case RMJ_TRUE: return .bool(true)
        case RMJ_FALSE: return .bool(false)
        default: return .null
        }
    }

    private func text(_ token: rmj_token) -> String {
        guard let arena, token.length > 0 else { return "" }
        let bytes = UnsafeBufferPointer(start: arena + Int(token.offset), count: Int(token.length))
        return String(decoding: bytes, as: UTF8.self)
    }
}

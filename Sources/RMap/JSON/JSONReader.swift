internal import RMapJSONC

/// Parses whole JSON documents held in memory, with simdjson.
///
/// Arrays and objects may nest ``maxDepth`` deep; deeper input is an error at
/// the bracket that opens one level too many, so no value rmap holds is too deep
/// for the code that walks it.
///
/// ```swift
/// let value = try JSONReader.parse(#"{"id": 1, "price": 12.50}"#, origin: "inline")
/// // value.object?["price"] == .number("12.50")
/// ```
public enum JSONReader {
    /// How deep arrays and objects may nest in the JSON rmap reads: 512
    /// (`[[1]]` nests 2 deep). Deeper input fails with `nested deeper than 512`.
    public static let maxDepth = Int(RMJ_MAX_DEPTH)

    /// Parses one whole JSON document.
    ///
    /// - Parameters:
    ///   - bytes: the UTF-8 document, e.g. `[UInt8]`, `Data` or a `String.UTF8View`.
    ///   - origin: the file path or URL named in errors.
    ///   - maxDepth: how deep arrays and objects may nest; ``maxDepth`` unless the
    ///     caller wrapped values of that depth in a few levels of its own.
    /// - Returns: the value, with numbers as their literal text and object keys in order.
    /// - Throws: ``JSONError`` with the position when the bytes are not valid UTF-8 JSON
    ///   or nest deeper than `maxDepth`.
    /// - Complexity: O(n) in the length of `bytes`.
    public static func parse(
        _ bytes: some Collection<UInt8>, origin: String, maxDepth: Int = JSONReader.maxDepth
    ) throws(JSONError) -> JSONValue {
        let buffer = InputBuffer(capacity: bytes.count)
        let copied: Void? = bytes.withContiguousStorageIfAvailable { buffer.append(UnsafeRawBufferPointer($0)) }
        if copied == nil { Array(bytes).withUnsafeBytes { buffer.append($0) } }
        return try NativeJSONParser(origin: origin, maxDepth: maxDepth).parseDocument(buffer, origin: origin)
    }

    /// Parses one whole JSON document from text.
    ///
    /// - Throws: ``JSONError`` with the position when the text is not valid JSON.
    public static func parse(_ text: String, origin: String) throws(JSONError) -> JSONValue {
        try parse(text.utf8, origin: origin)
    }
}

/// Parses whole JSON documents held in memory, with simdjson.
///
/// ```swift
/// let value = try JSONReader.parse(#"{"id": 1, "price": 12.50}"#, origin: "inline")
/// // value.object?["price"] == .number("12.50")
/// ```
public enum JSONReader {
    /// Parses one whole JSON document.
    ///
    /// - Parameters:
    ///   - bytes: the UTF-8 document, e.g. `[UInt8]`, `Data` or a `String.UTF8View`.
    ///   - origin: the file path or URL named in errors.
    /// - Returns: the value, with numbers as their literal text and object keys in order.
    /// - Throws: ``JSONError`` with the position when the bytes are not valid UTF-8 JSON.
    /// - Complexity: O(n) in the length of `bytes`.
    public static func parse(_ bytes: some Collection<UInt8>, origin: String) throws(JSONError) -> JSONValue {
        let buffer = InputBuffer(capacity: bytes.count)
        let copied: Void? = bytes.withContiguousStorageIfAvailable { buffer.append(UnsafeRawBufferPointer($0)) }
        if copied == nil { Array(bytes).withUnsafeBytes { buffer.append($0) } }
        return try NativeJSONParser(origin: origin).parseDocument(buffer, origin: origin)
    }

    /// Parses one whole JSON document from text.
    ///
    /// - Throws: ``JSONError`` with the position when the text is not valid JSON.
    public static func parse(_ text: String, origin: String) throws(JSONError) -> JSONValue {
        try parse(text.utf8, origin: origin)
    }
}

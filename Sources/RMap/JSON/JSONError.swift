/// A JSON payload that could not be read or parsed.
///
/// Its description names the origin and, when known, the 1-based line and
/// column (counted in bytes) of the problem:
///
/// ```
/// samples/people.json:3:14: invalid JSON: expected ',' or ']'
/// ```
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file path or URL the bytes came from.
    public var origin: String
    /// The 0-based byte offset of the problem in the input, when known.
    public var offset: Int?
    /// The 1-based line of the problem, when known.
    public var line: Int?
    /// The 1-based column of the problem in bytes, when known.
    public var column: Int?
    /// What is wrong, e.g. `invalid JSON: unclosed string`.
    public var message: String

    /// Creates an error.
    public init(origin: String, offset: Int? = nil, line: Int? = nil, column: Int? = nil, message: String) {
        self.origin = origin
        self.offset = offset
        self.line = line
        self.column = column
        self.message = message
    }

    /// `origin:line:column: message`, or `origin: message` without a position.
    public var description: String {
        guard let line, let column else { return "\(origin): \(message)" }
        return "\(origin):\(line):\(column): \(message)"
    }
}

extension JSONError {
    /// An error at `offset` bytes into `bytes`, whose first byte sits after
    /// `lineBreaks` line breaks and `column` bytes into its line.
    init(
        origin: String, message: String, bytes: UnsafeRawBufferPointer, offset: Int, base: Int,
        lineBreaks: Int, column: Int
    ) {
        let position = BytePosition(offset: offset, in: bytes, lineBreaks: lineBreaks, column: column)
        self.init(
            origin: origin, offset: base + offset, line: position.line, column: position.column, message: message)
    }
}

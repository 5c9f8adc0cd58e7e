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
        var line = lineBreaks + 1
        var column = column + offset + 1
        for index in 0..<min(offset, bytes.count) where bytes[index] == 0x0A {
            line += 1
            column = offset - index
        }
        self.init(origin: origin, offset: base + offset, line: line, column: column, message: message)
    }

    /// The offset of the first byte that is not valid UTF-8 at or after `start`.
    static func firstInvalidUTF8(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes[start...].makeIterator()
        var offset = start
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return start
            case .error: return offset
            }
        }
    }
}

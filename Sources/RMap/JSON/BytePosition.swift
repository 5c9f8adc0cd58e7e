/// Where a byte offset falls in UTF-8 text: a 1-based line and a 1-based
/// column counted in bytes, for errors in input that may not be valid text.
struct BytePosition: Equatable {
    /// The 1-based line.
    var line: Int
    /// The 1-based column, in bytes.
    var column: Int

    /// The position of `offset` in `bytes`, whose first byte sits after
    /// `lineBreaks` line breaks and `column` bytes into its line.
    init(offset: Int, in bytes: UnsafeRawBufferPointer, lineBreaks: Int = 0, column: Int = 0) {
        line = lineBreaks + 1
        self.column = column + offset + 1
        for index in 0..<min(offset, bytes.count) where bytes[index] == 0x0A {
            line += 1
            self.column = offset - index
        }
    }

    /// The offset of the first byte that is not valid UTF-8 at or after `start`,
    /// or `nil` when the rest is valid.
    static func firstInvalidUTF8(in bytes: UnsafeRawBufferPointer, from start: Int = 0) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes[start...].makeIterator()
        var offset = start
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}

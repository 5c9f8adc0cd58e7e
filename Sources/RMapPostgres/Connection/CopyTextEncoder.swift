/// Writes rows in COPY's text format into a byte buffer: fields separated by
/// tabs, rows ended by newlines, NULL as `\N`, and backslash, tab, newline
/// and carriage return escaped so any text round-trips exactly.
struct CopyTextEncoder {
    /// The encoded rows not yet sent.
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends one row.
    mutating func append(_ row: [String?]) {
        for (index, field) in row.enumerated() {
            append(field: field, first: index == 0)
        }
        endRow()
    }

    /// Appends one field of the row being written, after a tab unless it is the row's `first`.
    mutating func append(field: String?, first: Bool) {
        if !first {
            bytes.append(UInt8(ascii: "\t"))
        }
        if var field {
            field.withUTF8 { appendEscaped($0) }
        } else {
            bytes.append(UInt8(ascii: "\\"))
            bytes.append(UInt8(ascii: "N"))
        }
    }

    /// Ends the row being written.
    mutating func endRow() {
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Forgets the encoded rows, keeping the buffer's capacity.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Copies runs of ordinary bytes in one go and escapes the rest.
    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for (index, byte) in utf8.enumerated() {
            let escape: UInt8
            switch byte {
            case UInt8(ascii: "\\"): escape = UInt8(ascii: "\\")
            case UInt8(ascii: "\t"): escape = UInt8(ascii: "t")
            case UInt8(ascii: "\n"): escape = UInt8(ascii: "n")
            case UInt8(ascii: "\r"): escape = UInt8(ascii: "r")
            default: continue
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            bytes.append(UInt8(ascii: "\\"))
            bytes.append(escape)
            runStart = index + 1
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
    }
}

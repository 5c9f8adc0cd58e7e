/// rmap's `?` parameters (``SQLEngine``) as PostgreSQL's numbered ones: each `?` outside quoted
/// text becomes `$1`, `$2`, … in order. Quoted names (`"a?"`), string literals (`'?'`, `E'\'?'`),
/// dollar-quoted text (`$f$?$f$`) and comments are copied as they are.
///
/// rmap's statements use no operator spelled with `?` (jsonb's `?`, `?|`, `?&`): in them, `?` is
/// always a parameter.
///
/// ```swift
/// PostgresPlaceholders.numbered(#"SELECT "a?" FROM t WHERE x = ? AND y = '?' AND z = ?"#)
/// // SELECT "a?" FROM t WHERE x = $1 AND y = '?' AND z = $2
/// ```
enum PostgresPlaceholders {
    /// The statement with its `?` parameters numbered.
    static func numbered(_ sql: String) -> String {
        guard sql.utf8.contains(UInt8(ascii: "?")) else { return sql }
        var scanner = Scanner(bytes: Array(sql.utf8))
        return scanner.rewrite()
    }

    private struct Scanner {
        let bytes: [UInt8]
        var output: [UInt8] = []
        var position = 0
        var parameters = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
            output.reserveCapacity(bytes.count + 16)
        }

        mutating func rewrite() -> String {
            while position < bytes.count {
                let byte = bytes[position]
                switch byte {
                case UInt8(ascii: "?"):
                    parameters += 1
                    output.append(contentsOf: "$\(parameters)".utf8)
                    position += 1
                case UInt8(ascii: "'"):
                    let escapes =
                        position > 0 && (bytes[position - 1] | 0x20) == UInt8(ascii: "e")
                        && (position < 2 || !isWordByte(bytes[position - 2]))
                    copyQuoted(until: UInt8(ascii: "'"), backslashEscapes: escapes)
                case UInt8(ascii: "\""):
                    copyQuoted(until: UInt8(ascii: "\""), backslashEscapes: false)
                case UInt8(ascii: "-") where next == UInt8(ascii: "-"):
                    copy(through: bytes[position...].firstIndex(of: UInt8(ascii: "\n")))
                case UInt8(ascii: "/") where next == UInt8(ascii: "*"):
                    copyBlockComment()
                case UInt8(ascii: "$") where !(position > 0 && isWordByte(bytes[position - 1])):
                    copyDollarQuoted()
                default:
                    output.append(byte)
                    position += 1
                }
            }
            return String(decoding: output, as: UTF8.self)
        }

        private var next: UInt8? { position + 1 < bytes.count ? bytes[position + 1] : nil }

        private func isWordByte(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "_") || byte >= 0x80 || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        }

        /// Copies up to and including `end` (to the end of the text when `nil`).
        private mutating func copy(through end: Int?) {
            let stop = end.map { $0 + 1 } ?? bytes.count
            output.append(contentsOf: bytes[position..<stop])
            position = stop
        }

        /// Copies a quoted run from its opening quote to its closing one; a doubled quote is
        /// part of the text, as is a backslashed character in an `E'...'` literal.
        private mutating func copyQuoted(until quote: UInt8, backslashEscapes: Bool) {
            var index = position + 1
            while index < bytes.count {
                if backslashEscapes, bytes[index] == UInt8(ascii: "\\") {
                    index += 2
                } else if bytes[index] == quote {
                    if index + 1 < bytes.count, bytes[index + 1] == quote {
                        index += 2
                    } else {
                        break
                    }
                } else {
                    index += 1
                }
            }
            copy(through: min(index, bytes.count - 1))
        }

        /// Copies a `/* ... */` comment, which may nest.
        private mutating func copyBlockComment() {
            var depth = 0
            var index = position
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                    depth += 1
                    index += 2
                } else if bytes[index] == UInt8(ascii: "*"), index + 1 < bytes.count,
                    bytes[index + 1] == UInt8(ascii: "/")
                {
                    depth -= 1
                    index += 2
                    if depth == 0 { break }
                } else {
                    index += 1
                }
            }
            copy(through: min(index, bytes.count) - 1)
        }

        /// Copies `$tag$ ... $tag$` whole; a `$` that opens no tag (`$1`) is copied alone.
        private mutating func copyDollarQuoted() {
            var end = position + 1
            while end < bytes.count, bytes[end] != UInt8(ascii: "$"), isWordByte(bytes[end]),
                !(end == position + 1 && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]))
            {
                end += 1
            }
            guard end < bytes.count, bytes[end] == UInt8(ascii: "$") else {
                output.append(bytes[position])
                position += 1
                return
            }
            let tag = Array(bytes[position...end])
            var index = end + 1
            while index + tag.count <= bytes.count, !bytes[index..<(index + tag.count)].elementsEqual(tag) {
                index += 1
            }
            copy(through: min(index + tag.count, bytes.count) - 1)
        }
    }
}

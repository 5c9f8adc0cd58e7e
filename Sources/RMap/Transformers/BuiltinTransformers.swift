/// The value transformers every run has, by the name an attribute's
/// `transform:` uses. Each rewrites strings and the strings inside arrays, and
/// passes other values (null included) through unchanged.
///
/// | name | does |
/// |---|---|
/// | `trim` | removes leading and trailing whitespace and newlines |
/// | `lowercase` / `uppercase` | changes the case of every letter |
/// | `capitalize` | first character upper case, the rest lower case (Rails' `capitalize`) |
/// | `squish` | trims, then collapses each run of whitespace into one space (Rails' `squish`) |
/// | `nullify_blank` | an empty or whitespace-only string becomes `null` |
///
/// ```swift
/// let registry = PluginRegistry()
/// for (name, transformer) in BuiltinTransformers.all { registry.register(transformer: name, transformer) }
/// ```
public enum BuiltinTransformers {
    /// Every built-in transformer by name.
    public static let all: [String: any Transformer] = [
        "trim": StringTransformer { .string(trimmed($0)) },
        "lowercase": StringTransformer { .string($0.lowercased()) },
        "uppercase": StringTransformer { .string($0.uppercased()) },
        "capitalize": StringTransformer { .string($0.prefix(1).uppercased() + $0.dropFirst().lowercased()) },
        "squish": StringTransformer { .string(squished($0)) },
        "nullify_blank": StringTransformer { $0.allSatisfy(\.isWhitespace) ? .null : .string($0) },
    ]

    private static func trimmed(_ text: String) -> String {
        // Fast path: ASCII spaces stripped, ASCII left at both ends: no grapheme breaking needed.
        let utf8 = text.utf8
        var start = utf8.startIndex
        var end = utf8.endIndex
        while start < end, isASCIISpace(utf8[start]) { start = utf8.index(after: start) }
        while start < end, isASCIISpace(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        let edgesAreASCII = start == end || (utf8[start] < 0x80 && utf8[utf8.index(before: end)] < 0x80)
        if edgesAreASCII { return start == utf8.startIndex && end == utf8.endIndex ? text : String(text[start..<end]) }
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
            let last = text.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(text[first...last])
    }

    private static func isASCIISpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    private static func squished(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

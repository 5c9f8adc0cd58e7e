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
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
            let last = text.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(text[first...last])
    }

    private static func squished(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

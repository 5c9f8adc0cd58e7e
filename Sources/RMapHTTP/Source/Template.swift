import RMap

/// `{name}` placeholders in paths and parameter values.
enum Template {
    /// The placeholder names in order.
    static func placeholders(in text: String) -> [String] {
        NestedPath.placeholders(in: text)
    }

    /// `text` with each `{name}` replaced by `transform(values[name])`; unknown names stay.
    static func fill(_ text: String, with values: [String: String], transform: (String) -> String = { $0 }) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let name = String(rest[rest.index(after: open)..<close])
            result += rest[..<open]
            result += values[name].map(transform) ?? String(rest[open...close])
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }
}

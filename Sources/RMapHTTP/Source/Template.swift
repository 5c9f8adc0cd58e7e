import Foundation
import RMap

/// `{name}` placeholders in paths and parameter values.
enum Template {
    /// The placeholder names in order.
    static func placeholders(in text: String) -> [String] {
        NestedPath.placeholders(in: text)
    }

    /// `value` percent-encoded for a path segment; a value made only of dots (`.`, `..`)
    /// is encoded whole (`%2E%2E`), or the URL layer would drop it as a dot segment and
    /// send `/repos/octo/hello/` for `/repos/octo/hello/labels/..`.
    static func segment(_ value: String) -> String {
        if !value.isEmpty, value.allSatisfy({ $0 == "." }) { return String(repeating: "%2E", count: value.count) }
        let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
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

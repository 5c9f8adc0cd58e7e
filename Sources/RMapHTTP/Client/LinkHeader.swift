import Foundation

/// Parses RFC 8288 `Link` header values such as
/// `<https://api.github.com/repositories/1/issues?page=2>; rel="next", <...>; rel="last"`.
enum LinkHeader {
    /// The links by relation type; a link with several types (`rel="next last"`)
    /// is listed under each, and the first link of a type wins.
    static func parse(_ value: String, base: URL) -> [String: URL] {
        var links: [String: URL] = [:]
        var rest = Substring(value)
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            let target = String(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...]
            let end = nextLinkStart(in: rest)
            let types = relationTypes(in: rest[..<end])
            rest = rest[end...]
            guard let url = URL(string: target, relativeTo: base)?.absoluteURL else { continue }
            for type in types where links[type] == nil { links[type] = url }
        }
        return links
    }

    /// Where the next `<` that starts a link is: after a comma outside quotes.
    private static func nextLinkStart(in text: Substring) -> Substring.Index {
        var quoted = false
        var afterComma = false
        for index in text.indices {
            switch text[index] {
            case "\"": quoted.toggle()
            case "," where !quoted: afterComma = true
            case "<" where !quoted && afterComma: return index
            default: break
            }
        }
        return text.endIndex
    }

    /// The lower-cased values of the `rel` parameters in a link's parameters.
    private static func relationTypes(in parameters: Substring) -> [String] {
        parameters.split(separator: ";").flatMap { parameter -> [String] in
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "rel" else {
                return []
            }
            let value = parts[1].trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: ",")))
                .trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return value.split(separator: " ").map { $0.lowercased() }
        }
    }
}

extension Diagnostics {
    /// A payload key path: text split at dots, or a list of literal segments. An empty key or
    /// segment (`""`, `"."`, `"a..b"`) is an error: no record holds a value there.
    func payloadKeyPath(_ node: YAMLNode, of what: String, empty hint: String = "") -> [String]? {
        let segments: [String]
        if let items = node.sequence {
            segments = items.compactMap { string($0, "each segment of 'key'") }
            guard segments.count == items.count else { return nil }
        } else {
            guard let text = string(node, "'key'") else { return nil }
            segments = EntityDecoder.keyPath(text)
        }
        if segments.allSatisfy(\.isEmpty) {
            error(node.mark, "'key' of \(what) is empty\(hint)")
            return nil
        }
        if segments.contains(where: \.isEmpty) {
            error(
                node.mark, "'key' of \(what) has an empty segment: '\(segments.joined(separator: "."))'")
            return nil
        }
        return segments
    }
}

/// Collects mapping issues while decoding, and reads YAML nodes into typed
/// values, reporting what does not fit instead of stopping at the first problem.
final class Diagnostics {
    private(set) var issues: [MappingIssue] = []
    let interpolator: Interpolator

    init(interpolator: Interpolator) {
        self.interpolator = interpolator
    }

    func error(_ mark: Mark, _ message: String) {
        issues.append(MappingIssue(mark: mark, message: message))
    }

    /// The result of `body`, without the issues it reports: for a declaration checked once
    /// already (a relationship a sub-entity inherits reports its problems at its parent only).
    func muted<T>(_ body: () -> T) -> T {
        let count = issues.count
        defer { issues.removeSubrange(count...) }
        return body()
    }

    // MARK: - Shapes

    /// The pairs of a mapping node, or an issue naming what was expected.
    func mapping(_ node: YAMLNode, _ what: String) -> [YAMLPair]? {
        if let pairs = node.mapping { return pairs }
        if node.scalar?.isNull == true { return [] }
        error(node.mark, "\(what) must be a mapping, found \(node.kindName)")
        return nil
    }

    /// The pairs of a mapping node, each scalar key once; duplicated and non-scalar keys are reported.
    func uniquePairs(_ node: YAMLNode, _ what: String) -> [YAMLPair]? {
        guard let pairs = mapping(node, what) else { return nil }
        var seen: [String: Mark] = [:]
        return pairs.filter { pair in
            guard let key = pair.key.scalar?.text else {
                error(pair.key.mark, "keys of \(what) must be scalars, found \(pair.key.kindName)")
                return false
            }
            if let first = seen[key] {
                error(pair.key.mark, "duplicate key '\(key)' in \(what) (first at \(first))")
                return false
            }
            seen[key] = pair.key.mark
            return true
        }
    }

    /// The pairs of a mapping node with string keys, reporting unknown keys with a suggestion.
    func keyedPairs(_ node: YAMLNode, _ what: String, allowed: [String]) -> [(String, YAMLNode)]? {
        guard let pairs = uniquePairs(node, what) else { return nil }
        return pairs.compactMap { pair in
            let key = pair.key.scalar?.text ?? ""
            if !allowed.isEmpty, !allowed.contains(key) {
                error(pair.key.mark, "unknown key '\(key)' in \(what)\(Suggestion.hint(for: key, in: allowed))")
                return nil
            }
            return (key, pair.value)
        }
    }

    // MARK: - Scalars

    /// A string scalar, interpolated; `nil` with an issue for anything else.
    func string(_ node: YAMLNode, _ what: String) -> String? {
        guard let scalar = node.scalar, !scalar.isNull else {
            error(node.mark, "\(what) must be a string, found \(node.kindName)")
            return nil
        }
        return interpolator.interpolate(scalar, diagnostics: self)
    }

    /// A boolean scalar.
    func bool(_ node: YAMLNode, _ what: String) -> Bool? {
        if let value = node.scalar?.bool { return value }
        error(node.mark, "\(what) must be true or false, found \(describe(node))")
        return nil
    }

    /// An integer scalar.
    func int(_ node: YAMLNode, _ what: String) -> Int? {
        if let value = node.scalar?.int { return value }
        error(node.mark, "\(what) must be a whole number, found \(describe(node))")
        return nil
    }

    /// One of a fixed set of words.
    func choice<T: RawRepresentable & CaseIterable>(_ node: YAMLNode, _ what: String, as: T.Type) -> T?
    where T.RawValue == String {
        guard let text = string(node, what) else { return nil }
        if let value = T(rawValue: text) { return value }
        let names = T.allCases.map(\.rawValue)
        error(
            node.mark,
            "\(what) must be one of \(names.joined(separator: ", ")), found '\(text)'"
                + Suggestion.hint(for: text, in: names))
        return nil
    }

    /// A string or a list of strings.
    func strings(_ node: YAMLNode, _ what: String) -> [String]? {
        if let items = node.sequence {
            let values = items.compactMap { string($0, "each item of \(what)") }
            return values.count == items.count ? values : nil
        }
        return string(node, what).map { [$0] }
    }

    /// A scalar's text for messages: quoted, or the node's kind.
    func describe(_ node: YAMLNode) -> String {
        node.scalar.map { $0.isNull ? "null" : "'\($0.text)'" } ?? node.kindName
    }
}

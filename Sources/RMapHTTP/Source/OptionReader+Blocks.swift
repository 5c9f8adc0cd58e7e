import Foundation
import RMap

extension OptionReader {
    /// Fails at the first key of `node` that is not in `allowed`, suggesting the closest one.
    func onlyKeys(_ allowed: Set<String>, in node: YAMLNode, _ what: String) throws(PluginError) {
        for pair in node.mapping ?? [] {
            let key = pair.key.scalar?.text ?? ""
            guard !allowed.contains(key) else { continue }
            throw fail(
                pair.key,
                "unknown key '\(key)' in \(what) (expected \(allowed.sorted().joined(separator: ", ")))"
                    + Suggestion.hint(for: key, in: allowed))
        }
    }

    /// A mapping option's node with only `allowed` keys, or `nil` when absent; `example` shows
    /// its shape in the error when it is not a mapping.
    func block(_ key: String, allowed: Set<String>, example: String) throws(PluginError) -> YAMLNode? {
        guard let node = options[key], !(node.scalar?.isNull ?? false) else { return nil }
        guard node.mapping != nil else {
            throw fail(node, "'\(key)' must be a mapping, e.g. \(example), found \(node.kindName)")
        }
        try onlyKeys(allowed, in: node, "'\(key)'")
        return node
    }

    /// The value of `key` in the mapping `node`, which must be there.
    func required(_ key: String, in node: YAMLNode, _ what: String, example: String) throws(PluginError) -> YAMLNode {
        guard let value = node[key], !(value.scalar?.isNull ?? false) else {
            throw fail(node, "\(what) needs '\(key)', e.g. \(example)")
        }
        return value
    }

    /// A duration: a number of seconds, or a number with a unit (`500ms`, `1s`, `15m`, `2h`, `7d`).
    ///
    /// - Parameter zero: whether `0` is allowed.
    func duration(_ node: YAMLNode, _ what: String, zero: Bool = false) throws(PluginError) -> Duration {
        let text = try self.text(node, what).trimmingCharacters(in: .whitespaces)
        let units: [(suffix: String, seconds: Double)] = [
            ("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86400),
        ]
        let unit = units.first { text.hasSuffix($0.suffix) && Double(text.dropLast($0.suffix.count)) != nil }
        let number = Double(unit.map { String(text.dropLast($0.suffix.count)) } ?? text)
        guard let number, number.isFinite, zero ? number >= 0 : number > 0 else {
            throw fail(
                node,
                "\(what) must be a duration\(zero ? "" : " greater than 0") such as 500ms, 1s, 15m, 2h or 7d, found '\(text)'"
            )
        }
        return .milliseconds(Int64((number * (unit?.seconds ?? 1) * 1000).rounded()))
    }
}

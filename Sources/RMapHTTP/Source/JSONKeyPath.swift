import RMap

/// A key path into a JSON body, as the paging and error keys name it: `next`, `_links.next.href`,
/// or a list of segments for keys that hold dots (`["@odata.nextLink"]`).
struct JSONKeyPath: Sendable, Hashable, CustomStringConvertible {
    /// The keys, outermost first.
    var segments: [String]

    /// The value at the path in `document`, or `nil` when a key is missing or a step is not an object.
    func value(in document: JSONValue?) -> JSONValue? {
        segments.reduce(document) { value, key in value?.object?[key] }
    }

    /// The value at the path as text: a string, or a number's digits; `nil` for anything else.
    func text(in document: JSONValue?) -> String? {
        switch value(in: document) {
        case .string(let text)?: text
        case .number(let digits)?: digits
        default: nil
        }
    }

    /// As a mapping file writes it: `a.b`, or `[a.b]` when a segment holds a dot.
    var description: String {
        segments.contains { $0.contains(".") }
            ? "[\(segments.joined(separator: ", "))]" : segments.joined(separator: ".")
    }
}

extension OptionReader {
    /// A key path option: `a.b.c`, or a list of segments (`["@odata.nextLink"]`); `what` names it.
    func keyPath(_ node: YAMLNode, _ what: String) throws(PluginError) -> JSONKeyPath {
        if let items = node.sequence {
            var segments: [String] = []
            for item in items { segments.append(try text(item, "each segment of \(what)")) }
            guard !segments.isEmpty else { throw fail(node, "\(what) must name at least one key") }
            return JSONKeyPath(segments: segments)
        }
        let segments = try text(node, what).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !segments.contains(where: \.isEmpty) else {
            throw fail(node, "\(what) must be a key path such as 'meta.next', found '\(try text(node, what))'")
        }
        return JSONKeyPath(segments: segments)
    }

    /// A YAML value as JSON: plain `true`/`false`, whole and decimal numbers and `null` typed,
    /// quoted scalars and everything else strings; lists and mappings as arrays and objects.
    func json(_ node: YAMLNode) -> JSONValue {
        switch node {
        case .scalar(let scalar) where scalar.style != .plain: return .string(scalar.text)
        case .scalar(let scalar):
            if scalar.isNull { return .null }
            if let flag = scalar.bool { return .bool(flag) }
            if scalar.int != nil || scalar.double.map(\.isFinite) == true { return .number(scalar.text) }
            return .string(scalar.text)
        case .sequence(let items, _): return .array(items.map(json))
        case .mapping(let pairs, _):
            return .object(JSONObject(pairs.map { ($0.key.scalar?.text ?? "", json($0.value)) }))
        }
    }
}

extension AttributeDecoder {
    /// `wrap_single: true`, which only an array attribute takes.
    func decodeWrapSingle(_ node: YAMLNode, type: AttributeType) -> Bool {
        guard let wraps = diagnostics.bool(node, "'wrap_single'") else { return false }
        if wraps, !type.isArray {
            diagnostics.error(node.mark, "'wrap_single' applies to array attributes such as [\(type)], not \(type)")
            return false
        }
        return wraps
    }

    /// `true_values` and `false_values` of a `bool` attribute: each list replaces its side of the
    /// standard words; a text may not be on both sides.
    func decodeBooleanWords(_ options: [(String, YAMLNode)], type: AttributeType) -> BooleanWords? {
        var words = BooleanWords.standard
        var last: Mark?
        for (key, node) in options where key == "true_values" || key == "false_values" {
            guard let texts = diagnostics.strings(node, "'\(key)'") else { continue }
            guard type == .bool || type == .array(.bool) else {
                diagnostics.error(node.mark, "'\(key)' applies to bool attributes, not \(type)")
                continue
            }
            guard !texts.isEmpty else {
                diagnostics.error(node.mark, "'\(key)' lists no value")
                continue
            }
            last = node.mark
            if key == "true_values" {
                words.trueValues = texts.map { $0.lowercased() }
            } else {
                words.falseValues = texts.map { $0.lowercased() }
            }
        }
        guard let last else { return nil }
        if let both = words.trueValues.first(where: words.falseValues.contains) {
            diagnostics.error(last, "'\(both)' is both a true and a false value")
            return nil
        }
        return words
    }
}

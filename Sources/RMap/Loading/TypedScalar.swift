/// Turns YAML scalars (defaults, predicate operands) into typed values.
enum TypedScalar {
    /// The scalar as a value of `type`, or an issue.
    static func value(
        _ node: YAMLNode, as type: AttributeType, format: TimeFormat?, diagnostics: Diagnostics, what: String
    ) -> Value? {
        guard let scalar = node.scalar else {
            diagnostics.error(node.mark, "\(what) must be a scalar, found \(node.kindName)")
            return nil
        }
        var resolved = scalar
        resolved.text = diagnostics.interpolator.interpolate(scalar, diagnostics: diagnostics)
        if let value = ValueConverter.value(from: resolved.json, as: type, format: format) { return value }
        diagnostics.error(node.mark, "\(what) must be \(article(type)), found '\(scalar.text)'")
        return nil
    }

    /// `an int`, `a date`, `a list of int`: the type as a message names it.
    static func article(_ type: AttributeType) -> String {
        switch type {
        case .int: "an int"
        case .array(let element): "a list of \(element)"
        default: "a \(type)"
        }
    }
}

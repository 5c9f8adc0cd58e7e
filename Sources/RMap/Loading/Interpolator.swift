/// Expands `${VAR}` and `${VAR:-default}` in string scalars, and remembers
/// every expanded value so that output can redact it.
final class Interpolator {
    private let environment: [String: String]
    /// Values that came from the environment; never printed.
    private(set) var secrets: Set<String> = []

    init(environment: [String: String]) {
        self.environment = environment
    }

    /// The scalar's text with variables expanded; unset variables without a default become issues.
    func interpolate(_ scalar: YAMLScalar, diagnostics: Diagnostics) -> String {
        let text = scalar.text
        guard text.contains("${") else { return text }
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: "${") {
            result += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else {
                diagnostics.error(scalar.mark, "unterminated '${' in '\(text)'")
                return text
            }
            let expression = rest[start.upperBound..<end]
            let (name, fallback) = split(expression)
            if let value = environment[name], !(fallback != nil && value.isEmpty) {
                if !value.isEmpty { secrets.insert(value) }
                result += value
            } else if let fallback {
                result += fallback
            } else {
                diagnostics.error(scalar.mark, "environment variable '\(name)' is not set (and has no default)")
            }
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }

    private func split(_ expression: Substring) -> (String, String?) {
        guard let range = expression.range(of: ":-") else { return (String(expression), nil) }
        return (String(expression[..<range.lowerBound]), String(expression[range.upperBound...]))
    }
}

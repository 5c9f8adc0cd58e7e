/// Expands `${VAR}` and `${VAR:-default}` in string scalars (a `${VAR}` that is unset or empty
/// is an issue naming it; `${VAR:-}` may be empty), and remembers
/// the expanded values that are secrets so that output can redact them.
///
/// A value is a secret when its variable's name contains `TOKEN`, `SECRET`,
/// `PASSWORD` or `KEY` (in any case), or when it is used under a key that
/// holds secrets (`auth`, `headers`, any key containing `password`), unless it is a key
/// that names a place (``showsPlainly(_:)``). Other values, such as `site: ${RAILS_URL}`,
/// are shown as they are.
package final class Interpolator {
    private let environment: [String: String]
    /// Secret values that came from the environment; never printed.
    private(set) var secrets: Set<String> = []
    /// Every variable looked up, with its value (`nil`: unset): with the files' text, all a model depends on.
    private(set) var read: [String: String?] = [:]

    /// The words that make a variable's value a secret, upper-cased.
    static let secretNameWords = ["TOKEN", "SECRET", "PASSWORD", "KEY"]

    init(environment: [String: String]) {
        self.environment = environment
    }

    /// Whether values under the option `key` are secrets: `auth`, `headers`, or a key containing `password`.
    static func holdsSecrets(_ key: String) -> Bool {
        let key = key.lowercased()
        return key == "auth" || key == "headers" || key.contains("password")
    }

    /// Whether values under the option `key` are shown even inside a block that holds secrets:
    /// where an OAuth2 token is fetched and what it is for (`token_url`, `scope`, `grant`), so
    /// that `token_url: ${API_URL}/oauth/token` leaves `site: ${API_URL}` readable.
    static func showsPlainly(_ key: String) -> Bool {
        ["token_url", "scope", "grant"].contains(key.lowercased())
    }

    /// Whether the variable `name` holds a secret: its name contains TOKEN, SECRET, PASSWORD or KEY.
    package static func isSecret(variable name: String) -> Bool {
        let name = name.uppercased()
        return secretNameWords.contains { name.contains($0) }
    }

    /// The scalar's text with variables expanded; unset or empty variables without a default become issues.
    ///
    /// - Parameter secret: whether the scalar sits where secrets go (under `auth`, `headers`, a password):
    ///   then every value expanded in it is a secret, whatever its variable's name.
    func interpolate(_ scalar: YAMLScalar, diagnostics: Diagnostics, secret: Bool = false) -> String {
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
            read[name] = environment[name]
            if let value = environment[name], !value.isEmpty {
                if secret || Self.isSecret(variable: name) { secrets.insert(value) }
                result += value
            } else if let fallback {
                result += fallback
            } else if environment[name] != nil {
                // An empty value would be read as a path or URL without it: `/people.json`.
                diagnostics.error(
                    scalar.mark, "environment variable '\(name)' is empty (write ${\(name):-} where empty is meant)")
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

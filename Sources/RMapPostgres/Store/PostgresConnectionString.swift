import Foundation
import RMap

/// A libpq connection string with settings added: the `postgres` store's
/// TLS options (`sslmode`, `sslrootcert`, `sslcert`, `sslkey`) beside its `url`.
///
/// A URI gets them as query parameters (percent-encoded), a key/value
/// string as quoted `key='value'` pairs; either way libpq reads them as if
/// they had been written in the URL.
enum PostgresConnectionString {
    /// `url` with `settings` added (in key order).
    ///
    /// - Throws: ``PluginError`` when a setting is also given in `url` (with another value).
    static func adding(_ settings: [String: String], to url: String) throws -> String {
        let given = ConnectionOptions(parsing: url)
        var result = url
        for (key, value) in settings.sorted(by: { $0.key < $1.key }) {
            if let existing = given.value(for: key) {
                guard existing == value else {
                    throw PluginError.invalidOptions(
                        "'\(key)' is given both in the PostgreSQL url and as an option; give it once")
                }
                continue
            }
            result = isURI(result) ? appendQuery(key, value, to: result) : "\(result) \(key)='\(escaped(value))'"
        }
        return result
    }

    private static func isURI(_ url: String) -> Bool {
        url.hasPrefix("postgres://") || url.hasPrefix("postgresql://")
    }

    private static func appendQuery(_ key: String, _ value: String, to url: String) -> String {
        let unreserved = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/")
        let encoded = value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
        let separator = url.contains("?") ? (url.hasSuffix("?") || url.hasSuffix("&") ? "" : "&") : "?"
        return "\(url)\(separator)\(key)=\(encoded)"
    }

    private static func escaped(_ value: String) -> String {
        value.replacing("\\", with: "\\\\").replacing("'", with: "\\'")
    }
}

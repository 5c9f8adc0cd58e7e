import Foundation
import RMap

/// A token endpoint's successful answer (RFC 6749 §5.1): `access_token`, `token_type`
/// (`Bearer`), `expires_in` (seconds, optional) and `refresh_token` (optional).
struct TokenAnswer {
    var accessToken: String
    /// How long the token lives, when the server says.
    var lifetime: Duration?
    var refreshToken: String?

    /// Reads the answer to `request`.
    ///
    /// - Throws: ``HTTPError`` (``HTTPError/Reason/oauth2(_:)``) when it holds no token or one of
    ///   another type than `Bearer`; the body is never shown, it may hold the token.
    init(_ document: JSONValue, request: HTTPRequest, client: HTTPClient) throws(HTTPError) {
        func fail(_ problem: String) -> HTTPError {
            HTTPError(method: request.method, url: client.redact(request.url), reason: .oauth2(problem))
        }
        guard let object = document.object, let token = object["access_token"]?.string, !token.isEmpty else {
            throw fail("the token endpoint's answer has no access_token")
        }
        if let type = object["token_type"]?.string, type.lowercased() != "bearer" {
            throw fail("the token endpoint issued a '\(type)' token; rmap sends Bearer tokens only")
        }
        accessToken = token
        refreshToken = object["refresh_token"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        let seconds: Double? =
            switch object["expires_in"] {
            case .number(let digits)?: Double(digits)
            case .string(let text)?: Double(text)
            default: nil
            }
        lifetime = seconds.flatMap { $0.isFinite && $0 > 0 ? .milliseconds(Int64($0 * 1000)) : nil }
    }

    /// The tokens in a token endpoint's answer body (`access_token`, `refresh_token`, `id_token`),
    /// whatever else it holds.
    static func tokens(in body: Data) -> [String] {
        guard let object = (try? JSONReader.parse(body, origin: "token"))?.object else { return [] }
        return ["access_token", "refresh_token", "id_token"].compactMap { object[$0]?.string }
    }
}

import Foundation

/// How requests authenticate; the client applies it to every request.
///
/// ```swift
/// let auth = HTTPAuth.apiKey(.param("api_key"), value: token)   // ?api_key=...
/// ```
public enum HTTPAuth: Sendable, Hashable {
    /// Where an API key goes.
    public enum KeyPlacement: Sendable, Hashable {
        /// A header field with this name, e.g. `X-API-Key`.
        case header(String)
        /// A query parameter with this name, e.g. `api_key`.
        case param(String)
    }

    /// HTTP basic authentication (RFC 7617).
    case basic(user: String, password: String)
    /// `Authorization: Bearer <token>` (RFC 6750).
    case bearer(String)
    /// An API key in a header or a query parameter.
    case apiKey(KeyPlacement, value: String)
    /// `Authorization: Bearer <token>` with OAuth2 access tokens the session obtains (RFC 6749).
    case oauth2(OAuth2Session)

    /// The values that must never be shown (an OAuth2 session's tokens are added as they are issued).
    public var secrets: [String] {
        switch self {
        case .basic(let user, let password): [user, password, credentials]
        case .bearer(let token): [token]
        case .apiKey(_, let value): [value]
        case .oauth2(let session): session.grant.secrets
        }
    }

    /// `request` with the credentials added (a query key is added only when the URL lacks it,
    /// so following a server's `next` link that already carries it does not repeat it); an
    /// OAuth2 token is added by the client, which waits for it.
    func apply(to request: HTTPRequest) -> HTTPRequest {
        var request = request
        switch self {
        case .basic:
            request.headers["Authorization"] = "Basic \(credentials)"
        case .bearer(let token):
            request.headers["Authorization"] = "Bearer \(token)"
        case .apiKey(.header(let name), let value):
            request.headers[name] = value
        case .apiKey(.param(let name), let value):
            if !QueryEncoding.names(in: request.url).contains(name) {
                request.url = QueryEncoding.appending([(name, value)], to: request.url)
            }
        case .oauth2:
            break
        }
        return request
    }

    /// `url` without the API-key parameter when it carries this key (a server may echo
    /// it into a link to another origin, which must not receive it).
    func removingKey(from url: URL) -> URL {
        guard case .apiKey(.param(let name), let value) = self,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let query = components.percentEncodedQuery
        else { return url }
        let kept = query.split(separator: "&", omittingEmptySubsequences: false).filter { item in
            let parts = item.split(separator: "=", maxSplits: 1).map { $0.removingPercentEncoding ?? String($0) }
            return parts != [name, value]
        }
        components.percentEncodedQuery = kept.isEmpty ? nil : kept.joined(separator: "&")
        return components.url ?? url
    }

    /// The base64 `user:password` of basic authentication (empty otherwise).
    private var credentials: String {
        guard case .basic(let user, let password) = self else { return "" }
        return Data("\(user):\(password)".utf8).base64EncodedString()
    }
}

public import Foundation

/// How rmap obtains OAuth2 access tokens (RFC 6749): the token endpoint, the client's
/// credentials and the grant (`auth: {oauth2: {...}}` in a mapping).
///
/// The client authenticates with HTTP basic (§2.3.1) when it has a secret, and sends its
/// `client_id` in the form otherwise (a public client, §3.2.1).
///
/// ```swift
/// let grant = OAuth2Grant(
///     tokenURL: URL(string: "https://auth.example.com/oauth/token")!, clientID: id, clientSecret: secret,
///     scope: "read", kind: .clientCredentials)
/// ```
public struct OAuth2Grant: Sendable, Hashable {
    /// The grant type.
    public enum Kind: Sendable, Hashable {
        /// §4.4: the client's own credentials.
        case clientCredentials
        /// §6: a refresh token issued earlier (a server may rotate it: the new one is used next).
        case refreshToken(String)

        /// The `grant_type` value.
        var name: String {
            switch self {
            case .clientCredentials: "client_credentials"
            case .refreshToken: "refresh_token"
            }
        }
    }

    /// The token endpoint.
    public var tokenURL: URL
    /// The client identifier.
    public var clientID: String
    /// The client secret, `nil` for a public client.
    public var clientSecret: String?
    /// The scope asked for (`read write`), `nil` for the client's default.
    public var scope: String?
    /// The grant.
    public var kind: Kind

    /// Creates a grant.
    public init(tokenURL: URL, clientID: String, clientSecret: String?, scope: String?, kind: Kind) {
        self.tokenURL = tokenURL
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.scope = scope
        self.kind = kind
    }

    /// The values that must never be shown: the client secret (as sent, too) and the refresh token.
    /// (A client identifier is public, RFC 6749 §2.2; one read from the environment under `auth`
    /// is a secret of the mapping all the same.)
    public var secrets: [String] {
        var secrets: [String] = []
        if let clientSecret { secrets += [clientSecret, basicCredentials] }
        if case .refreshToken(let token) = kind { secrets.append(token) }
        return secrets
    }

    /// The token request (§4.4.2, §6) for this grant, with `refreshToken` as the one to use.
    func request(refreshToken: String?) -> HTTPRequest {
        var form = [("grant_type", kind.name)]
        if let refreshToken { form.append(("refresh_token", refreshToken)) }
        if let scope { form.append(("scope", scope)) }
        var headers = HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded")])
        if clientSecret != nil {
            headers["Authorization"] = "Basic \(basicCredentials)"
        } else {
            form.append(("client_id", clientID))
        }
        let body = form.map { "\(QueryEncoding.encode($0.0))=\(QueryEncoding.encode($0.1))" }.joined(separator: "&")
        return HTTPRequest(.post, url: tokenURL, headers: headers, body: Data(body.utf8))
    }

    /// `client_id:client_secret`, each form-encoded, in base64 (§2.3.1).
    private var basicCredentials: String {
        let pair = "\(QueryEncoding.encode(clientID)):\(QueryEncoding.encode(clientSecret ?? ""))"
        return Data(pair.utf8).base64EncodedString()
    }
}

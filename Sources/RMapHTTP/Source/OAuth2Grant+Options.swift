import Foundation
import RMap

extension OAuth2Grant {
    /// The keys of `auth: {oauth2: {...}}`.
    static let keys: Set<String> = ["token_url", "client_id", "client_secret", "scope", "grant", "refresh_token"]

    /// Reads `auth.oauth2` for a source whose requests go to `site`.
    ///
    /// The token URL must be `https`, or on the site's own origin (a test server on 127.0.0.1):
    /// the client's secret must not cross the network in clear to anyone else.
    init(_ node: YAMLNode, site: URL, reader: OptionReader) throws(PluginError) {
        let example =
            "'auth: {oauth2: {token_url: https://auth.example.com/oauth/token, client_id: ..., client_secret: ...}}'"
        guard node.mapping != nil else { throw reader.fail(node, "'auth.oauth2' must be a mapping, e.g. \(example)") }
        try reader.onlyKeys(Self.keys, in: node, "'auth.oauth2'")
        func text(_ key: String) throws(PluginError) -> String? {
            guard let value = node[key], !(value.scalar?.isNull ?? false) else { return nil }
            return try reader.text(value, "'auth.oauth2.\(key)'")
        }
        let urlNode = try reader.required("token_url", in: node, "'auth.oauth2'", example: example)
        let urlText = try reader.text(urlNode, "'auth.oauth2.token_url'")
        guard let url = URL(string: urlText), let scheme = url.scheme?.lowercased(), url.host != nil,
            scheme == "https" || (scheme == "http" && Origin(url) == Origin(site))
        else {
            throw reader.fail(
                urlNode,
                "'auth.oauth2.token_url' must be an https URL, or on the site's origin (\(Origin(site).text)), found '\(urlText)'"
            )
        }
        let clientID = try reader.text(
            try reader.required("client_id", in: node, "'auth.oauth2'", example: example), "'auth.oauth2.client_id'")
        let kind = try Self.kind(node, reader: reader)
        let secret = try text("client_secret")
        if case .clientCredentials = kind, secret == nil {
            throw reader.fail(node, "'auth.oauth2' with grant client_credentials needs 'client_secret'")
        }
        if case .clientCredentials = kind, let extra = node["refresh_token"] {
            throw reader.fail(extra, "'auth.oauth2.refresh_token' goes with 'grant: refresh_token'")
        }
        self.init(tokenURL: url, clientID: clientID, clientSecret: secret, scope: try text("scope"), kind: kind)
    }

    private static func kind(_ node: YAMLNode, reader: OptionReader) throws(PluginError) -> Kind {
        let names = ["client_credentials", "refresh_token"]
        guard let grant = node["grant"], !(grant.scalar?.isNull ?? false) else { return .clientCredentials }
        let name = try reader.text(grant, "'auth.oauth2.grant'")
        switch name {
        case "client_credentials":
            return .clientCredentials
        case "refresh_token":
            let token = try reader.required(
                "refresh_token", in: node, "'auth.oauth2' with grant refresh_token",
                example: "'refresh_token: ${REFRESH_TOKEN}'")
            return .refreshToken(try reader.text(token, "'auth.oauth2.refresh_token'"))
        default:
            throw reader.fail(
                grant,
                "unknown grant '\(name)' in 'auth.oauth2' (expected client_credentials or refresh_token)"
                    + Suggestion.hint(for: name, in: names))
        }
    }
}

extension Origin {
    /// `scheme://host:port`, for messages.
    var text: String { "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")" }
}

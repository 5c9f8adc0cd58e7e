import Foundation
import RMap

/// The `graphql` source's options, validated: where the endpoint is, and what it shares with
/// the `http` source (headers, auth, pacing, statuses, timeouts, limits).
struct GraphQLSettings: Sendable, ClientOptions {
    /// The option keys the plugin reads.
    static let keys =
        [
            "endpoint", "headers", "auth", "timeout", "retries", "concurrency", "page_size", "allow_hosts",
            "max_body_bytes", "max_pages", StatusAction.optionKey,
        ] + Pacing.keys

    /// Where queries are posted.
    var endpoint: URL
    var headers = HTTPHeaders()
    var auth: HTTPAuth?
    var oauth2: OAuth2Grant?
    var pacing = Pacing()
    var timeout = Duration.seconds(30)
    var retries = 3
    /// Entities fetched at once.
    var concurrency = 4
    /// Sent as the variable `$first` to queries that use it.
    var pageSize: Int?
    var allowHosts: [String] = []
    var maxBodyBytes = 256 << 20
    /// The most pages one entity may have.
    var maxPages = 10_000
    /// `on_status`: what a status that is not a success means for the request.
    var statusActions: [Int: StatusAction] = [:]

    /// Reads and checks the options of a `source:` block.
    ///
    /// - Throws: ``PluginError`` at the mark of the first bad option.
    init(_ config: PluginConfig) throws(PluginError) {
        let reader = OptionReader(config)
        guard let node = config["endpoint"], let text = try reader.string("endpoint") else {
            throw PluginError.invalidOptions(
                "graphql source: 'endpoint' is required, e.g. endpoint: https://api.example.com/graphql",
                at: config.mark)
        }
        guard let endpoint = URL(string: text), let scheme = endpoint.scheme?.lowercased(),
            ["http", "https"].contains(scheme), endpoint.host != nil
        else {
            throw reader.fail(node, "'endpoint' must be an http or https URL, found '\(text)'")
        }
        self.endpoint = endpoint
        headers = try HTTPHeaders(reader)
        auth = try HTTPAuth(reader)
        oauth2 = try reader.options["auth"]?["oauth2"].map { node throws(PluginError) in
            try OAuth2Grant(node, site: endpoint, reader: reader)
        }
        pacing = try Pacing(reader)
        timeout = try reader.seconds("timeout") ?? timeout
        retries = try reader.count("retries") ?? retries
        concurrency = try reader.positiveInt("concurrency") ?? concurrency
        pageSize = try reader.positiveInt("page_size")
        allowHosts = try reader.strings("allow_hosts") ?? []
        maxBodyBytes = try reader.positiveInt("max_body_bytes") ?? maxBodyBytes
        maxPages = try reader.positiveInt("max_pages") ?? maxPages
        statusActions = try StatusAction.actions(reader)
    }

    var origin: URL { endpoint }

    /// Who receives the credentials: the endpoint's origin and the allowed hosts.
    var scope: CredentialScope { CredentialScope(site: endpoint, allowedHosts: allowHosts) }

    var secrets: [String] { credentialSecrets }
}

import Foundation
import RMap

/// The `http` source's options, validated.
struct HTTPSourceSettings: Sendable, ClientOptions {
    /// The option keys the plugin reads.
    static let keys =
        [
            "site", "suffix", "headers", "auth", "page_size", "paginate", "timeout", "retries", "concurrency", "params",
            "allow_hosts", "max_body_bytes", "max_pages", "window",
        ] + pagingKeys + answerKeys + Pacing.keys + formatKeys

    /// One `params:` entry: a template per value (`{id}` filled per parent); a list repeats `name[]`.
    struct Param: Sendable, Hashable {
        var name: String
        var values: [String]
        var isList: Bool
    }

    var site: URL
    var suffix = ".json"
    var headers = HTTPHeaders()
    var auth: HTTPAuth?
    /// `auth: {oauth2: ...}`: how access tokens are obtained (``auth`` is then `nil`).
    var oauth2: OAuth2Grant?
    /// `rate_limit` and `max_wait`.
    var pacing = Pacing()
    /// `window`: the date windows each index is fetched in.
    var window: DateWindow?
    var pageSize: Int?
    var pagination = Pagination.none
    var timeout = Duration.seconds(30)
    var retries = 3
    var concurrency = 4
    var params: [Param] = []
    /// Hosts besides the site's that may receive the credentials and headers.
    var allowHosts: [String] = []
    /// The largest body read, in bytes.
    var maxBodyBytes = 256 << 20
    /// The most pages one index may have.
    var maxPages = 10_000
    /// `size_param`: where the page size goes, when not the style's default.
    var sizeParam: PagingParameter?
    /// The JSON body of `method: post` indexes (`nil`: `GET`).
    var body: JSONValue?
    /// `on_status`: what a status that is not a success means for the request.
    var statusActions: [Int: StatusAction] = [:]
    /// `error_when`: the 200 answers that are errors.
    var errorWhen: ErrorEnvelope?
    /// `format`: Rails JSON or JSON:API documents.
    var format = DocumentFormat.rails

    /// Reads and checks the options of a `source:` block.
    ///
    /// - Throws: ``PluginError`` at the mark of the first bad option.
    init(_ config: PluginConfig) throws(PluginError) {
        let reader = OptionReader(config)
        guard let siteText = try reader.string("site") else {
            throw PluginError.invalidOptions(
                "http source: 'site' is required, e.g. site: https://api.example.com", at: config.mark)
        }
        guard let site = URL(string: siteText.hasSuffix("/") ? String(siteText.dropLast()) : siteText),
            let scheme = site.scheme?.lowercased(), ["http", "https"].contains(scheme), site.host != nil
        else {
            throw reader.fail(
                config["site"] ?? config.options, "'site' must be an http or https URL, found '\(siteText)'")
        }
        self.site = site
        suffix = try reader.string("suffix") ?? ".json"
        headers = try HTTPHeaders(reader)
        auth = try HTTPAuth(reader)
        oauth2 = try reader.options["auth"]?["oauth2"].map { node throws(PluginError) in
            try OAuth2Grant(node, site: site, reader: reader)
        }
        pacing = try Pacing(reader)
        pageSize = try reader.positiveInt("page_size")
        try readPaging(reader)
        timeout = try reader.seconds("timeout") ?? timeout
        retries = try reader.count("retries") ?? retries
        concurrency = try reader.positiveInt("concurrency") ?? concurrency
        params = try Self.params(reader)
        allowHosts = try reader.strings("allow_hosts") ?? []
        maxBodyBytes = try reader.positiveInt("max_body_bytes") ?? maxBodyBytes
        maxPages = try reader.positiveInt("max_pages") ?? maxPages
        try readAnswers(reader)
        window = try DateWindow(reader, post: body != nil)
        try readFormat(reader)
    }

    var origin: URL { site }

    /// Who receives the credentials: the site's origin and the allowed hosts.
    var scope: CredentialScope {
        CredentialScope(site: site, allowedHosts: allowHosts)
    }

    /// The values no message may show: credentials and sensitive header values.
    var secrets: [String] {
        credentialSecrets + siteCredentials
    }

    /// The password of a `site` with userinfo (`http://bob:pw@host`), and the base64
    /// `user:password` a server echoing the `Authorization` header would show.
    private var siteCredentials: [String] {
        guard let password = site.password.map({ $0.removingPercentEncoding ?? $0 }), !password.isEmpty else {
            return []
        }
        let user = site.user.map { $0.removingPercentEncoding ?? $0 } ?? ""
        return [password, Data("\(user):\(password)".utf8).base64EncodedString()]
    }

    // MARK: - Options

    private static func params(_ reader: OptionReader) throws(PluginError) -> [Param] {
        var params: [Param] = []
        for pair in try reader.mapping("params") ?? [] {
            let name = try reader.text(pair.key, "a parameter name")
            if let items = pair.value.sequence {
                var values: [String] = []
                for item in items { values.append(try reader.text(item, "each value of parameter '\(name)'")) }
                params.append(Param(name: name, values: values, isList: true))
            } else if pair.value.scalar?.isNull ?? false {
                params.append(Param(name: name, values: [""], isList: false))
            } else {
                params.append(
                    Param(name: name, values: [try reader.text(pair.value, "parameter '\(name)'")], isList: false))
            }
        }
        return params
    }
}

import Foundation
import RMap

/// The `http` source's options, validated.
struct HTTPSourceSettings: Sendable {
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
        headers = try Self.headers(reader)
        auth = try Self.auth(reader)
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

    /// The `headers` option.
    static func headers(_ reader: OptionReader) throws(PluginError) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for pair in try reader.mapping("headers") ?? [] {
            let name = try headerText(reader, pair.key, "a header name")
            headers[name] = try headerText(reader, pair.value, "header '\(name)'")
        }
        return headers
    }

    /// A scalar sent in a header line: one holding CR, LF or NUL (a variable's value, say) would
    /// end the line and start another header, so it is refused, naming `what`, never the value.
    private static func headerText(_ reader: OptionReader, _ node: YAMLNode, _ what: String) throws(PluginError)
        -> String
    {
        let text = try reader.text(node, what)
        guard !HTTPHeaders.breaksLine(text) else {
            throw reader.fail(
                node, "\(what) holds a line break (CR or LF) or NUL, which would start another header (not shown)")
        }
        return text
    }

    /// The `auth` option's fixed credentials (`nil` for none, and for `oauth2`, read apart).
    static func auth(_ reader: OptionReader) throws(PluginError) -> HTTPAuth? {
        guard let pairs = try reader.mapping("auth") else { return nil }
        guard pairs.count == 1, let pair = pairs.first, let scheme = pair.key.scalar?.text else {
            throw reader.fail(
                reader.options["auth"] ?? reader.options,
                "'auth' takes exactly one of basic, bearer, api_key or oauth2")
        }
        func field(_ key: String, in node: YAMLNode) throws(PluginError) -> String {
            guard node.mapping != nil else { throw reader.fail(node, "'auth.\(scheme)' must be a mapping") }
            guard let value = node[key] else { throw reader.fail(node, "'auth.\(scheme)' needs '\(key)'") }
            return try reader.text(value, "'auth.\(scheme).\(key)'")
        }
        func onlyKeys(_ allowed: Set<String>, in node: YAMLNode) throws(PluginError) {
            for key in node.mapping ?? [] where !allowed.contains(key.key.scalar?.text ?? "") {
                throw reader.fail(
                    key.key,
                    "unknown key '\(key.key.scalar?.text ?? "")' in 'auth.\(scheme)' (expected \(allowed.sorted().joined(separator: ", ")))"
                )
            }
        }
        switch scheme {
        case "basic":
            try onlyKeys(["user", "password"], in: pair.value)
            return .basic(user: try field("user", in: pair.value), password: try field("password", in: pair.value))
        case "bearer":
            return .bearer(try headerText(reader, pair.value, "'auth.bearer'"))
        case "api_key":
            try onlyKeys(["header", "param", "value"], in: pair.value)
            let value = try field("value", in: pair.value)
            switch (pair.value["header"], pair.value["param"]) {
            case (let header?, nil):
                let name = try headerText(reader, header, "'auth.api_key.header'")
                if let node = pair.value["value"] { _ = try headerText(reader, node, "'auth.api_key.value'") }
                return .apiKey(.header(name), value: value)
            case (nil, let param?): return .apiKey(.param(try reader.text(param, "'auth.api_key.param'")), value: value)
            default: throw reader.fail(pair.value, "'auth.api_key' needs either 'header' or 'param' (not both)")
            }
        case "oauth2":
            return nil
        default:
            throw reader.fail(
                pair.key,
                "unknown auth scheme '\(scheme)' (expected basic, bearer, api_key or oauth2)"
                    + Suggestion.hint(for: scheme, in: ["basic", "bearer", "api_key", "oauth2"]))
        }
    }

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

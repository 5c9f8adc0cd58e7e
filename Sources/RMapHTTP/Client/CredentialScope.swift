public import Foundation

/// Which URLs may receive the client's credentials and configured headers.
///
/// Credentials go to one origin (scheme, host and port), as curl and Python's
/// requests send them: the `site`'s, or, without a site, the origin of the
/// request the caller sent. A redirect or a `next` link to any other origin
/// is sent without them, unless its host is one of ``allowedHosts`` (over
/// `https`, or the site's own scheme).
///
/// ```swift
/// let scope = CredentialScope(site: URL(string: "https://api.example.com")!, allowedHosts: ["uploads.example.com"])
/// scope.trusts(URL(string: "https://evil.test/x")!, first: site)   // false
/// ```
public struct CredentialScope: Sendable, Hashable {
    /// The origin credentials belong to; `nil`: the origin of each request as the caller sent it.
    public var site: URL?
    /// Other hosts (lower-cased) that may receive the credentials.
    public var allowedHosts: Set<String>

    /// Creates a scope.
    public init(site: URL? = nil, allowedHosts: some Sequence<String> = []) {
        self.site = site
        self.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
    }

    /// True when credentials may go to `url`, reached from a request first sent to `first`.
    public func trusts(_ url: URL, first: URL) -> Bool {
        let home = Origin(site ?? first)
        let target = Origin(url)
        if target == home { return true }
        return allowedHosts.contains(target.host) && (target.scheme == "https" || target.scheme == home.scheme)
    }
}

/// A URL's scheme, host and port (the default port when none is written).
struct Origin: Hashable {
    var scheme: String
    var host: String
    var port: Int?

    init(_ url: URL) {
        scheme = url.scheme?.lowercased() ?? ""
        host = url.host?.lowercased() ?? ""
        port = url.port ?? ["http": 80, "https": 443][scheme]
    }
}

public import Foundation

/// An HTTP response: status, header fields, body and the URL that answered.
public struct HTTPResponse: Sendable, Hashable {
    /// The status code, e.g. `200`.
    public var status: Int
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body (empty when there is none).
    public var body: Data
    /// The URL that answered (after any redirects); relative links resolve against it.
    public var url: URL

    /// Creates a response.
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data(), url: URL) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// True for a 2xx status.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// True for a `304 Not Modified` answer to `request`, a conditional request
    /// (`If-None-Match` or `If-Modified-Since`): what it asked for is unchanged.
    public func isNotModified(_ request: HTTPRequest) -> Bool {
        status == 304 && (request.headers["If-None-Match"] != nil || request.headers["If-Modified-Since"] != nil)
    }

    /// The links of the `Link` header (RFC 8288) by relation type, resolved against ``url``.
    ///
    /// ```swift
    /// response.links["next"]   // the next page, when there is one
    /// ```
    public var links: [String: URL] {
        headers["Link"].map { LinkHeader.parse($0, base: url) } ?? [:]
    }

    /// The `Location` header resolved against ``url`` (what a `201 Created` names).
    public var location: URL? {
        headers["Location"].flatMap { URL(string: $0, relativeTo: url)?.absoluteURL }
    }

    /// The start of the body as text, at most `limit` characters, for messages.
    public func bodyPrefix(_ limit: Int = 200) -> String {
        let text = String(decoding: body.prefix(limit * 4), as: UTF8.self)
        return text.count > limit ? String(text.prefix(limit)) + "…" : text
    }
}

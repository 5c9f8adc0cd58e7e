import Foundation
import RMap

/// Builds query strings the way Rails and most servers read them: every
/// character but the unreserved ones (and `,`, which `order=a asc,b desc`
/// keeps readable) is percent-encoded, spaces as `%20`.
enum QueryEncoding {
    /// One name or value, percent-encoded (as ``Redactor`` finds a secret in a query).
    static func encode(_ text: String) -> String {
        Redactor.percentEncoded(text)
    }

    /// `url` with `items` appended to its query, in order.
    static func appending(_ items: [(name: String, value: String)], to url: URL) -> URL {
        guard !items.isEmpty else { return url }
        let query = items.map { "\(encode($0.name))=\(encode($0.value))" }.joined(separator: "&")
        let text = url.absoluteString
        let separator = url.query == nil ? (text.hasSuffix("?") ? "" : "?") : "&"
        return URL(string: text + separator + query) ?? url
    }

    /// The names in `url`'s query (decoded).
    static func names(in url: URL) -> Set<String> {
        Set(URLComponents(url: url, resolvingAgainstBaseURL: true)?.queryItems?.map(\.name) ?? [])
    }
}

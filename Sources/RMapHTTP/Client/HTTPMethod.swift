/// An HTTP request method.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
    case get = "GET"
    case post = "POST"
    case put = "PUT"
    case patch = "PATCH"
    case delete = "DELETE"

    /// True when sending the request twice has the effect of sending it once
    /// (RFC 9110 §9.2.2): only such requests are retried after the server may
    /// have seen them.
    public var isIdempotent: Bool {
        switch self {
        case .get, .put, .delete: true
        case .post, .patch: false
        }
    }
}

public import Foundation
public import RMap

/// One HTTP request: method, absolute URL, header fields and an optional body.
///
/// The client adds its default headers and authentication when it sends the
/// request, so a request carries only what is particular to it.
///
/// ```swift
/// let update = HTTPRequest(
///     .put, url: URL(string: "https://api.example.com/people/2.json")!,
///     json: .object(JSONObject([("person", .object(JSONObject([("email", .string("new@x"))])))])))
/// ```
public struct HTTPRequest: Sendable, Hashable {
    /// The method.
    public var method: HTTPMethod
    /// The absolute URL, query included.
    public var url: URL
    /// Header fields particular to this request (they override the client's).
    public var headers: HTTPHeaders
    /// The body, when there is one.
    public var body: Data?

    /// Creates a request.
    public init(_ method: HTTPMethod, url: URL, headers: HTTPHeaders = HTTPHeaders(), body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// Creates a request whose body is `json`, with `Content-Type: application/json`.
    public init(_ method: HTTPMethod, url: URL, headers: HTTPHeaders = HTTPHeaders(), json: JSONValue) {
        var headers = headers
        headers["Content-Type"] = "application/json"
        self.init(method, url: url, headers: headers, body: Data(JSONWriter.serialize(json).utf8))
    }
}

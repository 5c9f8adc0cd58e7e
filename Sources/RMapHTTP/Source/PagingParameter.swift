import Foundation
import RMap

/// Where a paging value (a cursor, a page size) goes: a query parameter, or with `method: post`
/// a key of the JSON body (`body.start_cursor`, Notion's query endpoints).
enum PagingParameter: Sendable, Hashable, CustomStringConvertible {
    /// `?name=value`.
    case query(String)
    /// The key path under the request body: `body.start_cursor` is `["start_cursor"]`.
    case body([String])

    /// Reads `name` or `body.key.path`; a body parameter needs `method: post`.
    init(_ text: String, post: Bool, node: YAMLNode, reader: OptionReader) throws(PluginError) {
        guard text.hasPrefix("body.") else {
            self = .query(text)
            return
        }
        let path = text.dropFirst(5).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard post, !path.contains(where: \.isEmpty) else {
            throw reader.fail(
                node,
                post
                    ? "'\(text)' is not a key path under 'body.'"
                    : "'\(text)' goes in the body, so it needs 'method: post'")
        }
        self = .body(path)
    }

    var description: String {
        switch self {
        case .query(let name): name
        case .body(let path): "body." + path.joined(separator: ".")
        }
    }
}

/// One page's request: the URL, and the JSON body of a `method: post` index.
struct PageRequest: Sendable, Hashable {
    var url: URL
    var body: JSONValue?

    /// `base` with `values` set: query parameters appended in order, body keys set in `body`.
    init(base: URL, body: JSONValue?, values: [(PagingParameter, JSONValue)]) {
        var items: [(name: String, value: String)] = []
        var body = body
        for (parameter, value) in values {
            switch parameter {
            case .query(let name): items.append((name, value.string ?? JSONWriter.serialize(value)))
            case .body(let path): body = Self.setting(path[...], to: value, in: body ?? .object(JSONObject()))
            }
        }
        url = QueryEncoding.appending(items, to: base)
        self.body = body
    }

    /// A request for exactly `url` (a `next` link), with `body` unchanged.
    init(url: URL, body: JSONValue?) {
        self.url = url
        self.body = body
    }

    /// The HTTP request: a `GET`, or a `POST` of the JSON body.
    var http: HTTPRequest {
        body.map { HTTPRequest(.post, url: url, json: $0) } ?? HTTPRequest(.get, url: url)
    }

    private static func setting(_ path: ArraySlice<String>, to value: JSONValue, in object: JSONValue) -> JSONValue {
        guard let key = path.first else { return value }
        var members = object.object ?? JSONObject()
        members[key] = setting(path.dropFirst(), to: value, in: members[key] ?? .object(JSONObject()))
        return .object(members)
    }
}

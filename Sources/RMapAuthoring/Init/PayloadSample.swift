import Foundation
public import RMap

/// One sample payload that ``MappingInference`` reads: a parsed JSON
/// document and where it came from.
///
/// ```swift
/// let sample = PayloadSample(origin: .file("samples/people.json"), document: json)
/// ```
public struct PayloadSample: Sendable {
    /// Where a payload came from.
    public enum Origin: Sendable, Hashable {
        /// A file, by the path the user gave.
        case file(String)
        /// A URL fetched with one `GET`.
        case url(String)
    }

    /// Where the payload came from; its file name or URL path names the entity.
    public var origin: Origin
    /// The parsed payload.
    public var document: JSONValue

    /// Creates a sample.
    public init(origin: Origin, document: JSONValue) {
        self.origin = origin
        self.document = document
    }

    /// The payload files `path` names: a folder's `.json` files in name order
    /// (`samples/` gives `samples/people.json`, `samples/projects.json`), or the path itself.
    public static func files(at path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return [path]
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let folder = path.hasSuffix("/") ? path : path + "/"
        return names.filter { $0.hasSuffix(".json") }.sorted().map { folder + $0 }
    }

    /// The file name without folder and extension, or the URL's last path
    /// segment that is not a number: `people` for `samples/people.json` and
    /// for `http://host/people.json`; `projects` for `/people/1/projects.json`.
    var baseName: String {
        switch origin {
        case .file(let path):
            return Self.stem(path.split(separator: "/").last.map(String.init) ?? path)
        case .url(let text):
            let path = URLParts(text).path
            let segments = path.split(separator: "/").map(String.init).filter { Int($0) == nil }
            return Self.stem(segments.last ?? "records")
        }
    }

    private static func stem(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}

/// A URL's site (`scheme://host:port`), path and query, split without Foundation's URL rules.
struct URLParts: Sendable {
    /// `http://127.0.0.1:3000`.
    var site: String
    /// `/people/1/projects.json`.
    var path: String
    /// `per_page=3`, or empty.
    var query: String

    init(_ text: String) {
        let schemeEnd = text.range(of: "://")?.upperBound ?? text.startIndex
        let pathStart = text[schemeEnd...].firstIndex(of: "/") ?? text.endIndex
        site = String(text[..<pathStart])
        let rest = text[pathStart...]
        let queryStart = rest.firstIndex(of: "?")
        path = String(rest[..<(queryStart ?? rest.endIndex)])
        query = queryStart.map { String(rest[rest.index(after: $0)...]) } ?? ""
    }

    /// The query's name-value pairs, percent-decoded; a secret's value (its name holds
    /// TOKEN, SECRET, PASSWORD or KEY) is `nil`.
    var parameters: [(name: String, value: String?)] { Self.parameters(query) }

    /// The pairs of a query string (`per_page=3&access_token=x`), secrets' values `nil`.
    static func parameters(_ query: String) -> [(name: String, value: String?)] {
        query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).removingPercentEncoding ?? String($0)
            }
            let value = parts.count > 1 ? parts[1] : ""
            return (parts[0], Interpolator.isSecret(variable: parts[0].uppercased()) ? nil : value)
        }
    }

    /// The URL with secret query values shown as `***`, for messages.
    var redacted: String {
        let pairs = parameters.map { "\($0.name)=\($0.value ?? "***")" }
        return site + path + (pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&"))
    }
}

import Foundation
import RMap

/// The paging state of one index (one entity, or one parent's children): the
/// next page's URL from what the last page said.
struct Pager {
    /// A server that pages otherwise than configured, or would page forever.
    struct Failure: Error {
        var message: String
    }

    private let style: Pagination
    private let pageSize: Int?
    private let base: URL
    private var offset = 0
    private var page = 1
    private var seen: Set<String> = []

    /// A pager over `base` (the index URL with its own parameters).
    init(style: Pagination, pageSize: Int?, base: URL) {
        self.style = style
        self.pageSize = pageSize
        self.base = base
    }

    /// The first page's URL.
    var first: URL {
        switch style {
        case .none: base
        case .offset: url(limit: "limit", [("offset", "0")])
        case .page: url(limit: "per_page", [("page", "1")])
        case .linkHeader: url(limit: "per_page", [])
        case .cursor: url(limit: "limit", [])
        }
    }

    /// The next page's URL after a page with `count` records, or `nil` when that was the last.
    mutating func next(after response: HTTPResponse, document: JSONValue, count: Int) throws(Failure) -> URL? {
        switch style {
        case .none:
            return nil
        case .offset, .page:
            guard count > 0, count >= (pageSize ?? 1) else { return nil }
            if let pageSize, count > pageSize {
                throw Failure(
                    message:
                        "answered \(count) records for a page of \(pageSize); does the server page with \(style == .page ? "page/per_page" : "limit/offset")?"
                )
            }
            offset += count
            page += 1
            return style == .page
                ? url(limit: "per_page", [("page", String(page))]) : url(limit: "limit", [("offset", String(offset))])
        case .linkHeader:
            guard let next = response.links["next"] else { return nil }
            return try unseen(next.absoluteString, next)
        case .cursor(let path, let param):
            var value: JSONValue? = document
            for key in path { value = value?.object?[key] }
            let token: String
            switch value {
            case .string(let text)?: token = text
            case .number(let text)?: token = text
            default: return nil
            }
            guard !token.isEmpty else { return nil }
            return try unseen(token, url(limit: "limit", [(param, token)]))
        }
    }

    private func url(limit: String, _ items: [(name: String, value: String)]) -> URL {
        let size = pageSize.map { [(name: limit, value: String($0))] } ?? []
        return QueryEncoding.appending(size + items, to: base)
    }

    /// `url`, unless `key` (a cursor or next link) came before: a server repeating itself would loop forever.
    private mutating func unseen(_ key: String, _ url: URL) throws(Failure) -> URL {
        guard seen.insert(key).inserted else {
            throw Failure(message: "the server sent the same next page twice (\(key)); stopping instead of looping")
        }
        return url
    }
}

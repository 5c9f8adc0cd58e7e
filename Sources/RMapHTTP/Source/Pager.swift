import Foundation
import RMap

/// The paging state of one index (one entity, or one parent's children): the
/// next page's URL from what the last page said.
///
/// A server that would page forever fails instead: a page identical to the
/// one before, a cursor or `next` link sent before, or more than `maxPages` pages.
struct Pager {
    /// A server that pages otherwise than configured, or would page forever.
    struct Failure: Error {
        var message: String
    }

    private let style: Pagination
    private let pageSize: Int?
    private let base: URL
    private let maxPages: Int
    private var pages = 0
    private var offset = 0
    private var page = 1
    private var seen: Set<String> = []

    /// A pager over `base` (the index URL with its own parameters), stopping after `maxPages` pages.
    init(style: Pagination, pageSize: Int?, base: URL, maxPages: Int) {
        self.style = style
        self.pageSize = pageSize
        self.base = base
        self.maxPages = maxPages
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

    /// The next page's URL after a page, or `nil` when that was the last.
    ///
    /// - Parameters:
    ///   - response: the page's answer (its `Link` header).
    ///   - document: the page's body when it is not a top-level array (where a cursor is read).
    ///   - repeated: true when the page's body is byte for byte the previous page's.
    ///   - count: counts the page's records (called for `offset` and `page` only).
    mutating func next(
        after response: HTTPResponse, document: JSONValue?, repeated: Bool, count: () async throws -> Int
    ) async throws -> URL? {
        pages += 1
        guard let next = try await following(response, document: document, count: count) else { return nil }
        if repeated {
            throw Failure(
                message:
                    "page \(pages) is the same as page \(pages - 1) (does the server ignore \(parameter)?); stopping instead of looping"
            )
        }
        if pages >= maxPages {
            throw Failure(
                message:
                    "stopped after max_pages (\(maxPages)) pages; raise max_pages if the index really is that long")
        }
        return next
    }

    /// The paging parameter a server repeating a page ignores, for messages.
    private var parameter: String {
        switch style {
        case .none, .offset: "'offset'"
        case .page: "'page'"
        case .linkHeader: "its own next links"
        case .cursor(_, let param): "'\(param)'"
        }
    }

    private mutating func following(
        _ response: HTTPResponse, document: JSONValue?, count countRecords: () async throws -> Int
    ) async throws -> URL? {
        switch style {
        case .none:
            return nil
        case .offset, .page:
            let count = try await countRecords()
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

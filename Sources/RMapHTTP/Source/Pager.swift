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

    /// What the walk knows of a page once it has it.
    struct Page {
        /// The page's answer (its `Link` header, a cursor header).
        var response: HTTPResponse
        /// The page's body when it is not a top-level array (where a cursor or next URL is read).
        var document: JSONValue?
        /// True when the page's body is byte for byte the previous page's.
        var repeated: Bool
        /// Counts the page's records (called for `offset` and `page` only).
        var count: () async throws -> Int
        /// The `after_last` attribute's value in the page's last record (`nil` when it has none).
        var lastValue: () async throws -> String? = { nil }
    }

    private let style: Pagination
    private let pageSize: Int?
    private let sizeParameter: PagingParameter
    private let base: URL
    private let body: JSONValue?
    private let maxPages: Int
    /// The pages seen so far.
    private(set) var pages = 0
    private var offset = 0
    private var page = 1
    private var seen: Set<String> = []

    /// A pager over `base` (the index URL with its own parameters) and `body` (the index's, for
    /// `method: post`) as `settings` page it.
    init(settings: HTTPSourceSettings, base: URL, body: JSONValue?) {
        style = settings.pagination
        pageSize = settings.pageSize
        sizeParameter = settings.sizeParameter
        self.base = base
        self.body = body
        maxPages = settings.maxPages
    }

    /// The first page's request.
    var first: PageRequest {
        switch style {
        case .none: request([])
        case .offset: request([("offset", 0)])
        case .page: request([("page", 1)])
        case .linkHeader, .nextURL, .cursor: request([])
        }
    }

    /// True when an answer `404` ends the index rather than fails it: `page` and `offset` paging
    /// after a full page (Django REST framework answers the page past the end with
    /// `404 {"detail": "Invalid page."}`).
    var endsAtNotFound: Bool {
        pages > 0 && (style == .page || style == .offset)
    }

    /// The next page's request after `page`, or `nil` when that was the last.
    mutating func next(after page: Page) async throws -> PageRequest? {
        pages += 1
        guard let next = try await following(page) else { return nil }
        if page.repeated {
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
        case .nextURL: "its own next URLs"
        case .cursor(let cursor): "'\(cursor.param)'"
        }
    }

    private mutating func following(_ answer: Page) async throws -> PageRequest? {
        switch style {
        case .none:
            return nil
        case .offset, .page:
            let count = try await answer.count()
            guard count > 0, count >= (pageSize ?? 1) else { return nil }
            if let pageSize, count > pageSize {
                throw Failure(
                    message:
                        "answered \(count) records for a page of \(pageSize); does the server page with \(style == .page ? "page/per_page" : "limit/offset")?"
                )
            }
            offset += count
            page += 1
            return style == .page ? request([("page", page)]) : request([("offset", offset)])
        case .linkHeader:
            guard let next = answer.response.links["next"] else { return nil }
            return try unseen(next.absoluteString, PageRequest(url: next, body: body))
        case .nextURL(let path):
            guard let text = path.text(in: answer.document), !text.isEmpty,
                let next = URL(string: text, relativeTo: answer.response.url)?.absoluteURL
            else { return nil }
            return try unseen(next.absoluteString, PageRequest(url: next, body: body))
        case .cursor(let cursor):
            let token = try await cursor.next(
                after: answer.response, document: answer.document, lastValue: answer.lastValue)
            guard let token else { return nil }
            return try unseen(token, request([], cursor: (cursor.param, token)))
        }
    }

    /// The request for `base` with the page size (when set), `numbers` as query parameters and a cursor.
    func request(_ numbers: [(name: String, value: Int)], cursor: (PagingParameter, String)? = nil) -> PageRequest {
        var values = pageSize.map { [(sizeParameter, JSONValue.number(String($0)))] } ?? []
        values += numbers.map { (PagingParameter.query($0.name), JSONValue.number(String($0.value))) }
        if let (parameter, token) = cursor { values.append((parameter, .string(token))) }
        return PageRequest(base: base, body: body, values: values)
    }

    /// `request`, unless `key` (a cursor or next link) came before: a server repeating itself would loop forever.
    private mutating func unseen(_ key: String, _ request: PageRequest) throws(Failure) -> PageRequest {
        guard seen.insert(key).inserted else {
            throw Failure(message: "the server sent the same next page twice (\(key)); stopping instead of looping")
        }
        return request
    }
}

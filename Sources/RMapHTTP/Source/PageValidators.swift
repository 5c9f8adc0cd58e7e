import Foundation
import RMap

/// What the HTTP source remembers of one page for a conditional `GET` next
/// time: its `ETag` and `Last-Modified`, its `Link` header (to page on after a
/// `304`) and the identities of the objects it held, kept in the run state
/// (scope ``scope``, key: the page's URL with secrets redacted).
///
/// The `Link` header is kept with its secrets redacted too (a server may echo the
/// query, `api_key` and all, into its links): before it is used, each query
/// parameter shown as `***` takes the value the page's own request carries under
/// that name, credentials included (``restored(for:)``).
///
/// A `304 Not Modified` answer then stands for those objects: they count as
/// seen and unchanged without the page being sent or mapped again.
struct PageValidators {
    /// The run-state scope of page validators.
    static let scope = EntityStatus.pageScope

    /// The entity whose index the page belongs to.
    var entity: String
    var etag: String?
    var lastModified: String?
    var link: String?
    /// The identity values of the page's objects.
    var identities: [[JSONValue]]

    /// The validators of an answer, or `nil` when it has neither `ETag` nor `Last-Modified`;
    /// `redactor` hides the secrets of its `Link` header.
    init?(_ response: HTTPResponse, entity: String, identities: [IdentityKey], redactor: Redactor) {
        self.entity = entity
        etag = response.headers["ETag"]
        lastModified = response.headers["Last-Modified"]
        guard etag != nil || lastModified != nil else { return nil }
        link = response.headers["Link"].map(redactor.redact)
        self.identities = identities.map { $0.values.map { ValueConverter.json(from: $0) } }
    }

    /// The validators of a stored entry.
    init?(_ json: JSONValue) {
        guard let object = json.object, let entity = object["entity"]?.string,
            let identities = object["identities"]?.array
        else { return nil }
        self.entity = entity
        etag = object["etag"]?.string
        lastModified = object["last_modified"]?.string
        link = object["link"]?.string
        self.identities = identities.compactMap(\.array)
    }

    /// The stored form.
    var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("entity", .string(entity))]
        if let etag { members.append(("etag", .string(etag))) }
        if let lastModified { members.append(("last_modified", .string(lastModified))) }
        if let link { members.append(("link", .string(link))) }
        members.append(("identities", .array(identities.map(JSONValue.array))))
        return .object(JSONObject(members))
    }

    /// The validators with the secrets of their `Link` header restored from `url`, the page's
    /// request: each query parameter `name=***` takes `url`'s value of `name`, or goes when
    /// `url` has none. `nil` when a redacted part cannot be restored (a secret outside a
    /// query value): the page is then fetched in full, as if never seen.
    func restored(for url: URL) -> PageValidators? {
        guard let link, link.contains(Redactor.mark) else { return self }
        let values = Dictionary(
            (URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedQueryItems ?? []).map {
                ($0.name, $0.value)
            },
            uniquingKeysWith: { first, _ in first })
        let restored = link.replacing(#/<([^>]*)>/#) { match in
            guard match.output.1.contains(Redactor.mark), var target = URLComponents(string: String(match.output.1))
            else { return String(match.output.0) }
            target.percentEncodedQueryItems = target.percentEncodedQueryItems?.compactMap { item in
                guard item.value == Redactor.mark else { return item }
                return values[item.name].map { URLQueryItem(name: item.name, value: $0) }
            }
            return "<\(target.string ?? "")>"
        }
        guard !restored.contains(Redactor.mark) else { return nil }
        var validators = self
        validators.link = restored
        return validators
    }

    /// `request` asking for the page only if it changed.
    func conditional(_ request: HTTPRequest) -> HTTPRequest {
        var request = request
        if let etag { request.headers["If-None-Match"] = etag }
        if let lastModified { request.headers["If-Modified-Since"] = lastModified }
        return request
    }

    /// A `304` answer with the remembered `Link` header when it came without one, to page on.
    func completing(_ response: HTTPResponse) -> HTTPResponse {
        guard response.headers["Link"] == nil, let link else { return response }
        var completed = response
        completed.headers["Link"] = link
        return completed
    }

    /// The page's objects as identities of `entity`, whose identity attributes type them.
    func identityKeys(of entity: EntityMapping) -> [IdentityKey] {
        let types = entity.identity.map { entity.attribute(named: $0)?.type ?? .string }
        return identities.compactMap { values in
            guard values.count == types.count else { return nil }
            let typed = zip(values, types).compactMap { ValueConverter.value(from: $0, as: $1) }
            return typed.count == types.count ? IdentityKey(typed) : nil
        }
    }
}

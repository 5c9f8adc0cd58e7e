import Foundation

/// One request of a push plan: method, path under the site, and JSON body.
///
/// ```swift
/// request.line   // PUT /people/2.json {"person":{"email":"new@x"}}
/// ```
public struct PlannedRequest: Sendable, Equatable {
    /// `POST`, `PUT`, `PATCH` or `DELETE`.
    public var method: String
    /// The path under the site, with the suffix: `/people/2.json`, `/people/1/projects.json`.
    public var path: String
    /// The body; `nil` for a deletion.
    public var body: JSONValue?
    /// The change the request carries.
    public var change: SyncChange
    /// Positions (in the plan) of the requests that must succeed before this one is sent.
    public var dependencies: [Int]
    /// The key every attempt of a `POST` carries in the entity's idempotency header
    /// (`push: {idempotency_header: ...}`, default `Idempotency-Key`): given by
    /// ``PushSchedule/next()`` when it records the request in flight; `nil` in a plan.
    public var idempotencyKey: String?

    /// Creates a request.
    public init(method: String, path: String, body: JSONValue?, change: SyncChange, dependencies: [Int] = []) {
        self.method = method
        self.path = path
        self.body = body
        self.change = change
        self.dependencies = dependencies
    }

    /// `METHOD path body`, as `rmap diff` prints it.
    public var line: String { Self.line(method: method, path: path, body: body) }

    /// `METHOD path body`: a request as `rmap diff` prints it.
    public static func line(method: String, path: String, body: JSONValue?) -> String {
        body.map { "\(method) \(path) \(JSONWriter.serialize($0))" } ?? "\(method) \(path)"
    }

    /// The statuses that answer a request carrying an idempotency key while an earlier attempt
    /// with the key is still being processed: `409 Conflict` (Stripe,
    /// https://docs.stripe.com/api/idempotent_requests) and `425 Too Early`. Nothing ran for it,
    /// and the key must be sent again, never a new one.
    public static let inFlightStatuses: Set<Int> = [409, 425]

    /// True when `status` says an earlier attempt of this request is still in flight at the
    /// server: one of ``inFlightStatuses`` answering a `POST` (every `POST` carries its key).
    ///
    /// ```swift
    /// request.isInFlight(answered: 409)   // true for a POST: wait, send it again with the same key
    /// ```
    public func isInFlight(answered status: Int) -> Bool {
        method == "POST" && Self.inFlightStatuses.contains(status)
    }
}

/// Builds the request of a change in Rails form (MAPPING.md §6).
struct RequestBuilder {
    let sync: SyncSchema
    /// The suffix after each path (`.json` unless the entity's http source says otherwise), by entity.
    let suffix: (String) -> String

    func request(for change: SyncChange) throws -> PlannedRequest {
        let entity = try sync.entity(named: change.entity)
        if let jsonAPI = sync.jsonAPI(entity) { return jsonAPI.request(for: change, suffix: suffix(change.entity)) }
        let codec = RecordCodec(entity: entity)
        let collection = collectionPath(entity, values: change.values)
        let suffix = suffix(change.entity)
        switch change.kind {
        case .create:
            var body = codec.body(change.values, columns: change.columns)
            if let member = codec.typeMember() {
                body = Self.adding(member, to: body, bare: entity.route.root == .bare)
            }
            return PlannedRequest(method: "POST", path: "/\(collection)\(suffix)", body: body, change: change)
        case .update:
            let method = entity.type.mapping.pushMethod == .patch ? "PATCH" : "PUT"
            return PlannedRequest(
                method: method, path: "/\(collection)/\(Self.segment(change.identity))\(suffix)",
                body: codec.body(change.values, columns: change.columns), change: change)
        case .delete:
            return PlannedRequest(
                method: "DELETE", path: "/\(collection)/\(Self.segment(change.identity))\(suffix)", body: nil,
                change: change)
        }
    }

    /// The route's `path`, or its `nested_path` with each `{attribute}` filled from the row when all are set.
    private func collectionPath(_ entity: SyncSchema.EntitySync, values: [Value]) -> String {
        let mapping = entity.route
        guard let nested = mapping.nestedPath else { return mapping.path }
        var result = ""
        var rest = nested[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            result += rest[..<open]
            let name = String(rest[rest.index(after: open)..<close])
            guard let index = entity.type.attributeIndex(name) else { return mapping.path }
            let value = values[sync.layout.bindings[entity.type.index].attributeColumns[index]]
            if value.isNull { return mapping.path }
            result += Self.segment([value])
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// Identity values as one percent-encoded path segment (`acme/7` for a composite identity).
    /// A value made only of dots is encoded whole (`..` -> `%2E%2E`): the URL layer would
    /// remove it as a dot segment, and `DELETE /labels/..` would reach the collection's parent.
    static func segment(_ identity: [Value]) -> String {
        identity.map { value in
            let text = ValueText.display(value)
            if !text.isEmpty, text.allSatisfy({ $0 == "." }) { return String(repeating: "%2E", count: text.count) }
            var allowed = CharacterSet.urlPathAllowed
            allowed.remove(charactersIn: "/?#")
            return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
        }.joined(separator: "/")
    }

    private static func adding(_ member: (key: String, value: JSONValue), to body: JSONValue, bare: Bool) -> JSONValue {
        guard var outer = body.object else { return body }
        if bare {
            if outer[member.key] == nil { outer.members.append(member) }
            return .object(outer)
        }
        guard var inner = outer.members.first?.value.object else { return body }
        if inner[member.key] == nil { inner.members.append(member) }
        outer.members[0].value = .object(inner)
        return .object(outer)
    }
}

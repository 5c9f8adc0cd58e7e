import RMap

/// A live ``Session``'s local changes and their save: edits, inserts and deletions written to
/// the store through its sync API (``SyncStore``), pushed with ``Pusher``'s exactly-once push,
/// and each saved object refreshed afterwards.
///
/// Its methods run on the session they are given, whose store, cache and faults they keep current.
///
/// ```swift
/// let report = try await LiveChanges(model: session.model, pushTransport: nil).save(in: session)
/// ```
struct LiveChanges: Sendable {
    /// The model whose objects change.
    let model: MappingModel
    /// The network for the push; `nil` for libcurl with keep-alive, as `rmap push`.
    let pushTransport: (any HTTPTransport)?

    /// Writes attribute values of an object to the store as a local change (pushed by ``save(in:)``).
    ///
    /// - Returns: the object as stored now.
    /// - Throws: ``LiveError`` for an unknown attribute or an object no longer stored.
    func update(_ object: LiveObject, _ values: [String: Value], in session: isolated Session) async throws
        -> LiveObject
    {
        let key = try session.key(of: object)
        let entity = try session.mapping(object.entity)
        for name in values.keys where entity.attribute(named: name) == nil {
            throw LiveError.unknownAttribute(name, of: entity)
        }
        await session.takeTurn()
        defer { session.giveTurn() }
        guard let local = try session.sync.object(key.root, identity: object.identity) else {
            throw LiveError("\(object) is no longer in the store")
        }
        let updated = live(try session.sync.update(local, values), in: session)
        session.cache[key] = updated
        return updated
    }

    /// Inserts a new object (``Session/insert(_:_:)``); the object as stored.
    func insert(_ entity: String, _ values: [String: Value], in session: isolated Session) async throws -> LiveObject {
        await session.takeTurn()
        defer { session.giveTurn() }
        let object = live(try session.sync.insert(entity, values), in: session)
        session.cache[try session.key(of: object)] = object
        return object
    }

    /// Deletes an object locally (``Session/delete(_:)``), and from the cache and the loaded relationships.
    func delete(_ object: LiveObject, in session: isolated Session) async throws {
        let key = try session.key(of: object)
        await session.takeTurn()
        defer { session.giveTurn() }
        guard let stored = try session.sync.object(key.root, identity: object.identity) else {
            throw LiveError("\(object) is no longer in the store")
        }
        try session.sync.delete(stored)
        session.cache[key] = nil
        for fault in session.faults.keys where session.faults[fault]?.contains(key) == true {
            session.faults[fault]?.removeAll { $0 == key }
        }
    }

    /// The live object of an object of the sync API.
    private func live(_ local: LocalObject, in session: isolated Session) -> LiveObject {
        LiveObject(session: session, entity: local.entity, identity: local.identity, values: local.values)
    }

    /// Pushes every pending change and refreshes each saved object (``Session/save()``).
    ///
    /// - Returns: the push's report and the inserted objects as stored now.
    /// - Throws: ``SyncError`` for an entity without an http source, or the store's errors.
    func save(in session: isolated Session) async throws -> SaveReport {
        // The transport `rmap push` uses: libcurl, each connection kept for the next request.
        let recorder = AnswerRecorder(base: pushTransport ?? CurlTransport(reusingConnections: true))
        let pusher = Pusher(model: model, transport: recorder)
        await session.takeTurn()
        let pushed: (changes: [SyncChange], plan: PushPlan, report: PushReport)
        do {
            pushed = (try session.sync.changes(), try pusher.plan(session.sync), try await pusher.push(session.sync))
            session.giveTurn()
        } catch {
            session.giveTurn()
            throw error
        }
        let (changes, plan, report) = pushed
        for request in plan.requests where request.method != "DELETE" {
            guard let url = recorder.refreshURL(method: request.method, path: request.path) else { continue }
            try await refresh(request.change.entity, at: url, in: session)
        }
        for change in changes {
            let root = model.root(of: try session.mapping(change.entity)).name
            session.cache[ObjectKey(root: root, identity: IdentityKey(change.identity))] = nil
        }
        var created: [LiveObject] = []
        for change in changes where change.kind == .create {
            guard let reference = change.reference,
                let stored = try await stored(change.entity, reference: reference, in: session),
                !stored.isNew
            else { continue }
            let root = model.root(of: try session.mapping(change.entity)).name
            let key = ObjectKey(root: root, identity: IdentityKey(stored.identity))
            created += try await session.read([key], fresh: true)
        }
        return SaveReport(push: report, created: created)
    }

    /// The object of the sync API whose row has this handle, if the store still has it.
    private func stored(_ entity: String, reference: RowReference, in session: isolated Session) async throws
        -> LocalObject?
    {
        await session.takeTurn()
        defer { session.giveTurn() }
        return try session.sync.object(entity, reference: reference)
    }

    /// Reads a saved object again from `url` (a `Location` or the object's own URL) and merges it.
    private func refresh(_ entity: String, at url: String, in session: isolated Session) async throws {
        let mapping = try session.mapping(entity)
        guard let config = mapping.source else { return }
        let settings = try HTTPSourceSettings(config)
        var path =
            url.hasPrefix(settings.site.absoluteString)
            ? String(url.dropFirst(settings.site.absoluteString.count)) : url
        if path.hasSuffix(settings.suffix), !settings.suffix.isEmpty { path.removeLast(settings.suffix.count) }
        let query = try LiveQuery(object: mapping, path: path, model: model)
        let source = try HTTPSource(config: query.config, model: model)
        _ = try await session.load([query.entity], source: source, parents: [:])
    }
}

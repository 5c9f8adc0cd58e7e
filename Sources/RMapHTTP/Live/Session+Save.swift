public import RMap

// MARK: - Local changes and save

extension Session {
    /// Writes attribute values of an object to the store as a local change (pushed by ``save()``).
    ///
    /// - Returns: the object as stored now.
    /// - Throws: ``LiveError`` for an unknown attribute or an object no longer stored.
    func update(_ object: LiveObject, _ values: [String: Value]) async throws -> LiveObject {
        let key = try key(of: object)
        let entity = try mapping(object.entity)
        for name in values.keys where entity.attribute(named: name) == nil {
            throw LiveError.unknownAttribute(name, of: entity)
        }
        await takeTurn()
        defer { giveTurn() }
        guard let local = try sync.object(key.root, identity: object.identity) else {
            throw LiveError("\(object) is no longer in the store")
        }
        let updated = live(try sync.update(local, values))
        cache[key] = updated
        return updated
    }

    /// Inserts a new object; ``save()`` creates it on the server and gives it its permanent identity.
    ///
    /// An integer identity left out gets a temporary negative value until the save.
    ///
    /// ```swift
    /// let grace = try await session.insert("CRMPerson", ["firstName": "Grace", "lastName": "Hopper"])
    /// let saved = try await session.save()   // POST /people.json; saved.created[0]["id"] is the server's
    /// ```
    public func insert(_ entity: String, _ values: [String: any ValueConvertible]) async throws -> LiveObject {
        await takeTurn()
        defer { giveTurn() }
        let object = live(try sync.insert(entity, values.mapValues(\.value)))
        cache[try key(of: object)] = object
        return object
    }

    /// Deletes an object locally; ``save()`` deletes it on the server.
    public func delete(_ object: LiveObject) async throws {
        let key = try key(of: object)
        await takeTurn()
        defer { giveTurn() }
        guard let stored = try sync.object(key.root, identity: object.identity) else {
            throw LiveError("\(object) is no longer in the store")
        }
        try sync.delete(stored)
        cache[key] = nil
        for fault in faults.keys where faults[fault]?.contains(key) == true { faults[fault]?.removeAll { $0 == key } }
    }

    /// The live object of an object of the sync API.
    private func live(_ local: LocalObject) -> LiveObject {
        LiveObject(session: self, entity: local.entity, identity: local.identity, values: local.values)
    }

    /// Pushes every pending change (edits, inserts, deletions) with ``Pusher``'s exactly-once push, then
    /// refreshes each saved object: from the server's answer, or with a `GET` when the answer had no body.
    ///
    /// Only changed attributes are sent (`PUT /people/1.json {"person":{"email":...}}`); an inserted
    /// object takes the identity the server assigns, and server-set attributes (`updated_at`) its values.
    ///
    /// - Returns: the push's report and the inserted objects as stored now (with their permanent identities).
    /// - Throws: ``SyncError`` for an entity without an http source, or the store's errors; the
    ///   server's refusals (`422`) are in the report's `pending`, the changes kept.
    public func save() async throws -> SaveReport {
        // The transport `rmap push` uses: libcurl, each connection kept for the next request.
        let recorder = AnswerRecorder(base: pushTransport ?? CurlTransport(reusingConnections: true))
        let pusher = Pusher(model: model, transport: recorder)
        await takeTurn()
        let pushed: (changes: [SyncChange], plan: PushPlan, report: PushReport)
        do {
            pushed = (try sync.changes(), try pusher.plan(sync), try await push(pusher))
            giveTurn()
        } catch {
            giveTurn()
            throw error
        }
        let (changes, plan, report) = pushed
        for request in plan.requests where request.method != "DELETE" {
            guard let url = recorder.refreshURL(method: request.method, path: request.path) else { continue }
            try await refresh(request.change.entity, at: url)
        }
        for change in changes {
            cache[ObjectKey(root: model.root(of: try mapping(change.entity)).name, identity: IdentityKey(change.identity))] = nil
        }
        var created: [LiveObject] = []
        for change in changes where change.kind == .create {
            guard let reference = change.reference, let stored = try await stored(change.entity, reference: reference),
                !stored.isNew
            else { continue }
            let key = ObjectKey(root: model.root(of: try mapping(change.entity)).name, identity: IdentityKey(stored.identity))
            created += try await read([key], fresh: true)
        }
        return SaveReport(push: report, created: created)
    }

    /// The object of the sync API whose row has this handle, if the store still has it.
    private func stored(_ entity: String, reference: RowReference) async throws -> LocalObject? {
        await takeTurn()
        defer { giveTurn() }
        return try sync.object(entity, reference: reference)
    }

    /// Runs the push on the session (the sync store never leaves it).
    private func push(_ pusher: Pusher) async throws -> PushReport {
        try await pusher.push(sync)
    }

    /// Reads a saved object again from `url` (a `Location` or the object's own URL) and merges it.
    private func refresh(_ entity: String, at url: String) async throws {
        let mapping = try self.mapping(entity)
        guard let config = mapping.source else { return }
        let settings = try HTTPSourceSettings(config)
        var path =
            url.hasPrefix(settings.site.absoluteString)
            ? String(url.dropFirst(settings.site.absoluteString.count)) : url
        if path.hasSuffix(settings.suffix), !settings.suffix.isEmpty { path.removeLast(settings.suffix.count) }
        let query = try LiveQuery(object: mapping, path: path, model: model)
        let source = try HTTPSource(config: query.config, model: model)
        _ = try await load([query.entity], source: source, parents: [:])
    }
}

/// What ``Session/save()`` did.
public struct SaveReport: Sendable {
    /// The push's report: requests sent, acknowledged, and what is still pending with the server's reasons.
    public var push: PushReport
    /// The inserted objects the server created, as stored now (permanent identities, server-set values).
    public var created: [LiveObject]
}

public import RMap

// MARK: - Local changes and save

extension Session {
    /// Writes attribute values of an object to the store as a local change (pushed by ``save()``).
    ///
    /// - Returns: the object as stored now.
    /// - Throws: ``LiveError`` for an unknown attribute or an object no longer stored.
    func update(_ object: LiveObject, _ values: [String: Value]) throws -> LiveObject {
        let key = try key(of: object)
        let entity = try mapping(object.entity)
        guard let root = schema.type(named: key.root) else { throw LiveError.unknownEntity(key.root, in: model) }
        let table = layout.table(of: root)
        var columns: [(Int, Value)] = []
        for (name, value) in values {
            guard let column = entity.attribute(named: name).flatMap({ table.columnIndex($0.column) }) else {
                throw LiveError.unknownAttribute(name, of: entity)
            }
            columns.append((column, value))
        }
        let row = try store.backend.transaction(layout) {
            guard var row = try store.backend.fetch(table, identities: [object.identity])[key.identity]?.row else {
                throw LiveError("\(object) is no longer in the store")
            }
            for (column, value) in columns { row[column] = value }
            try store.backend.editingLocally { try store.backend.upsertRows(table, [row]) }
            return row
        }
        let updated = self.object(row, root: root, table: table)
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
    public func insert(_ entity: String, _ values: [String: any ValueConvertible]) throws -> LiveObject {
        let stored = try sync.insert(entity, values.mapValues(\.value))
        let object = LiveObject(session: self, entity: entity, identity: stored.identity, values: stored.values)
        cache[try key(of: object)] = object
        return object
    }

    /// Deletes an object locally; ``save()`` deletes it on the server.
    public func delete(_ object: LiveObject) throws {
        let key = try key(of: object)
        let family = Set(model.family(of: key.root).map(\.name))
        guard
            let stored = try sync.objects(of: key.root).first(where: {
                family.contains($0.entity) && IdentityKey($0.identity) == key.identity
            })
        else {
            throw LiveError("\(object) is no longer in the store")
        }
        try sync.delete(stored)
        cache[key] = nil
        for fault in faults.keys where faults[fault]?.contains(key) == true { faults[fault]?.removeAll { $0 == key } }
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
        let changes = try sync.changes()
        let plan = try pusher.plan(sync)
        let report = try await push(pusher)
        for request in plan.requests where request.method != "DELETE" {
            guard let url = recorder.refreshURL(method: request.method, path: request.path) else { continue }
            try await refresh(request.change.entity, at: url)
        }
        for change in changes {
            let key = try key(
                of: LiveObject(session: self, entity: change.entity, identity: change.identity, values: [:]))
            cache[key] = nil
        }
        var created: [LiveObject] = []
        for change in changes where change.kind == .create {
            guard let stored = try sync.objects(of: change.entity).first(where: { $0.reference == change.reference }),
                !stored.isNew
            else { continue }
            created += try read(
                [
                    ObjectKey(
                        root: model.root(of: try mapping(change.entity)).name, identity: IdentityKey(stored.identity),
                        entity: change.entity)
                ], fresh: true)
        }
        return SaveReport(push: report, created: created)
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

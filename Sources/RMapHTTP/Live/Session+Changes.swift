public import RMap

/// A ``Session``'s local changes: edits, inserts and deletions written to the store, and
/// ``save()`` pushing them to the server.
extension Session {
    /// Writes attribute values of an object to the store as a local change (pushed by ``save()``).
    ///
    /// - Returns: the object as stored now.
    /// - Throws: ``LiveError`` for an unknown attribute or an object no longer stored.
    func update(_ object: LiveObject, _ values: [String: Value]) async throws -> LiveObject {
        try await changes.update(object, values, in: self)
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
        try await changes.insert(entity, values.mapValues(\.value), in: self)
    }

    /// Deletes an object locally; ``save()`` deletes it on the server.
    public func delete(_ object: LiveObject) async throws {
        try await changes.delete(object, in: self)
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
        try await changes.save(in: self)
    }
}

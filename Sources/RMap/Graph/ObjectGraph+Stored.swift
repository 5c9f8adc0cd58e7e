/// Objects a run did not fetch but its connections found in the store.
///
/// They join the graph so that connections link to them like to any object,
/// and stay out of everything a write does: their rows, links and counts are
/// the store's, untouched by the run.
extension ObjectGraph {
    /// The origin of stored objects.
    static let storedOrigin = "(stored)"

    /// Adds a stored object of `type` with its stored values (one per attribute), unless the
    /// graph holds its identity already.
    ///
    /// - Returns: the object added, `nil` when its identity is incomplete or known.
    @discardableResult
    func addStored(_ type: EntityType, values: [Value?]) -> GraphObject? {
        var identity: [Value] = []
        for position in type.identityIndices {
            guard let value = values[position], !value.isNull else { return nil }
            identity.append(value)
        }
        let key = IdentityKey(identity)
        guard !identity.isEmpty, object(root: type.rootIndex, identity: key) == nil else { return nil }
        storedSource = originNumber(Self.storedOrigin)
        return upsert(type, identity: key, source: Self.storedOrigin, index: -1, values: values).0
    }

    /// True when `object` was read from the store for a connection, not fetched by the run.
    public func isStored(_ object: GraphObject) -> Bool {
        guard let storedSource else { return false }
        return table(object.root).origin(of: object.row).source == storedSource
    }
}

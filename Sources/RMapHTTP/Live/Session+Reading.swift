import RMap

/// Reading a ``Session``'s store: the objects of some keys as stored, from memory when it holds
/// them, and a stored row as an object.
extension Session {
    /// The objects of `keys` as stored (from memory unless `fresh`), in order, of `family`'s
    /// entities when given; objects without a row are left out.
    func read(_ keys: [ObjectKey], fresh: Bool, family: String? = nil) async throws -> [LiveObject] {
        await takeTurn()
        defer { giveTurn() }
        var found: [ObjectKey: LiveObject] = [:]
        var missing: [String: [ObjectKey]] = [:]
        let root = family.flatMap(model.entity(named:)).map { model.root(of: $0).name }
        for key in keys where root == nil || key.root == root {
            if !fresh, let cached = cache[key] {
                found[key] = cached
            } else {
                missing[key.root, default: []].append(key)
            }
        }
        for (root, group) in missing {
            guard let type = stored.schema.type(named: root) else { continue }
            let rows = try stored.rows(
                withIdentities: group.map(\.identity.values), of: type, on: store.engineOnWorker())
            for key in group {
                guard let (type, row) = rows[key.identity] else { continue }
                found[key] = object(row, type: type)
            }
        }
        let members = family.map { Set(model.family(of: $0).map(\.name)) }
        return keys.compactMap { key in
            guard let object = found[key], members?.contains(object.entity) ?? true else { return nil }
            cache[key] = object
            return object
        }
    }

    /// A stored row as an object of `type`.
    func object(_ row: [Value], type: EntityType) -> LiveObject {
        LiveObject(
            session: self, entity: type.name, identity: stored.table(of: type).identityValues(of: row),
            values: stored.values(of: row, as: type))
    }
}

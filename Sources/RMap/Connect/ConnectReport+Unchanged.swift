extension ConnectReport {
    /// Drops the dangling references to objects that a source saw unchanged without delivering
    /// them (``SourceRunState/unchanged(entity:identities:)``, an HTTP `304`): they are stored,
    /// only not in this run's graph.
    mutating func removeDangling(toUnchanged unchanged: [String: [IdentityKey]], schema: GraphSchema) {
        guard !unchanged.isEmpty else { return }
        var seen: [Int: Set<IdentityKey>] = [:]
        for (name, identities) in unchanged {
            guard let type = schema.type(named: name) else { continue }
            seen[type.rootIndex, default: []].formUnion(identities)
        }
        dangling.removeAll { reference in
            guard let type = schema.type(named: reference.destination), let identities = seen[type.rootIndex],
                reference.attributes == type.mapping.identity
            else { return false }
            return identities.contains(IdentityKey(reference.values))
        }
    }
}

/// The required values lacking in the new objects of one top-level record, which the store checks
/// (``RequiredCheck``): if the record stands, the store checks them; if it is rejected, their
/// errors join its errors, as candidates the store confirms.
struct LackingRequiredValues {
    /// A required value lacking in a record, its error not made yet.
    private struct Entry {
        /// What the store confirms; its `error` is where the error goes among the record's errors
        /// (counting the lacking values before it).
        let candidate: RequiredCheck.Candidate
        let identity: IdentityKey
        let path: RecordPath
        /// `null` or `missing`.
        let said: String
    }

    private var entries: [Entry] = []

    /// Forgets the values of the last top-level record, keeping the storage.
    mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
    }

    /// Notes each required attribute of `plan` that `values` lacks (missing or null, without a default).
    ///
    /// - Parameter errorCount: how many errors the mapping holds so far.
    mutating func note(_ plan: EntityPlan, values: [Value?], identity: IdentityKey, path: RecordPath, errorCount: Int) {
        for attribute in plan.attributes where attribute.required {
            guard let value = values[attribute.position] ?? attribute.defaultValue, !value.isNull else {
                let said = values[attribute.position] == nil ? "missing" : "null"
                let candidate = RequiredCheck.Candidate(
                    error: errorCount + entries.count, type: plan.type.index, identity: identity.values,
                    attribute: attribute.position)
                entries.append(Entry(candidate: candidate, identity: identity, path: path, said: said))
                continue
            }
        }
    }

    /// Adds the lacking values' errors to the errors of the rejected record at `index` of `origin`,
    /// each where it was met, and their candidates, which the store confirms or withdraws.
    func reject(into tally: MappingTally, plans: [EntityPlan], origin: String, index: Int) {
        for entry in entries {
            let plan = plans[entry.candidate.type]
            let attribute = plan.attributes[entry.candidate.attribute]
            tally.errors.insert(
                RecordError(
                    entity: plan.type.name, identity: plan.described(entry.identity), attribute: attribute.name,
                    keyPath: entry.path.joined(attribute.key), value: nil, origin: origin, index: index,
                    message: "required attribute is \(entry.said) on a new object"),
                at: entry.candidate.error)
            tally.requiredCandidates.append(entry.candidate)
        }
    }
}

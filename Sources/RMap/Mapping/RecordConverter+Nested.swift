/// The nested records of a ``RecordConverter`` record: the records a nested relationship's key
/// holds (or an embedded relationship's record), each converted as a record of its own, with
/// what it takes from its parent.
extension RecordConverter {
    enum Nested {
        case absent, rejected
        case records([PendingRecord]?)
    }

    /// The records a nested relationship's key holds: `.records(nil)` for `null`.
    ///
    /// - Parameters:
    ///   - values: the parent record's values, which its nested records may take (``NestedPlan/parentFill``).
    ///   - prepared: the records' attributes converted ahead, one per element.
    func nestedRecords(
        _ object: JSONObject, _ nested: NestedPlan, plan: EntityPlan, identity: IdentityKey, values: [Value?],
        path: RecordPath, prepared: [PreparedRecord]?
    ) -> Nested {
        let destination = plans[nested.destination.index]
        let fill = nested.fill(from: values, typeCount: plans.count)
        guard let slot = nested.slot else { return embeddedRecord(object, nested, destination, path: path, fill: fill) }
        let keyPath = path.joined(nested.key)
        let value: JSONValue
        switch RecordFields.lookup(object[plan.slots[slot]], rest: nested.rest) {
        case .missing: return nested.nullifiesMissing ? .records(nil) : .absent
        case .found(.null): return .records(nil)
        case .found(let found): value = found
        case .notAnObject(let found, let key):
            fail(
                plan, identity: plan.described(identity), keyPath: keyPath, value: found,
                "expected an object at '\(key)', found \(found.kindName)")
            return .rejected
        }
        switch (value, nested.toMany) {
        case (.array(let array), true):
            let items = ScalarRecord.records(array, for: destination.type) ?? array
            var records: [PendingRecord] = []
            records.reserveCapacity(items.count)
            var rejected = false
            for (offset, item) in items.enumerated() {
                if case .null = item {
                    skipNull(destination)
                    continue
                }
                let path = RecordPath(key: keyPath, offset: offset)
                switch node(item, declared: destination, path: path, fill: fill, prepared: prepared?[offset]) {
                case .record(let record): records.append(record)
                case .rejected: rejected = true
                case .declined: continue
                }
            }
            return rejected ? .rejected : .records(records)
        case (.object, false):
            return single(
                node(value, declared: destination, path: RecordPath(key: keyPath), fill: fill, prepared: prepared?[0]))
        default:
            let expected = nested.toMany ? "an array of objects" : "an object"
            fail(
                plan, identity: plan.described(identity), keyPath: keyPath, value: value,
                "relationship '\(nested.name)' expects \(expected), found \(value.kindName)")
            return .rejected
        }
    }

    /// An embedded relationship's record: the parent's own record read with the destination's plan,
    /// when it holds a key of one of the destination's attributes besides its identity.
    private func embeddedRecord(
        _ object: JSONObject, _ nested: NestedPlan, _ destination: EntityPlan, path: RecordPath, fill: PayloadFill?
    ) -> Nested {
        guard object.members.contains(where: { nested.embeddedKeys.contains($0.key) }) else { return .absent }
        return single(
            node(.object(object), declared: destination, path: path, fill: fill, prepared: nil, embedded: true))
    }

    /// A to-one's record: a declined one leaves the relationship as it was.
    private func single(_ converted: Converted) -> Nested {
        switch converted {
        case .record(let record): .records([record])
        case .rejected: .rejected
        case .declined: .absent
        }
    }
}

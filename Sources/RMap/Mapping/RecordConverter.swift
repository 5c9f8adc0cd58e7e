/// Converts one payload record, with its nested records, into a
/// ``PendingRecord``, reporting every problem found.
///
/// A record is rejected when any of its values cannot be read, its identity is
/// missing, a required attribute of an object new to the store is missing or null, its type
/// key names no entity (unless its entity says `unknown_type: skip`: then it is declined,
/// counted and left out), or any record nested in it is rejected: a parent stands
/// or falls with its nested records, so that a `replace` relationship never
/// loses a member because one nested record was bad. A `null` item of an array of records
/// is skipped and counted, as RestKit skips `NSNull` in collections.
final class RecordConverter {
    private let schema: GraphSchema
    let plans: [EntityPlan]
    private let tally: MappingTally
    private var origin = ""
    private var index = 0
    /// Entities of the records visited in the current top-level record, for counting a rejection.
    private var visited: [Int] = []
    /// Identities met in the current top-level record: seen again, they are not new objects.
    private var seen = Set<SeenIdentity>()
    /// Required values lacking in the current top-level record's new objects.
    private var lacking = LackingRequiredValues()
    /// What untyped records give to their entities' sub-entities' attributes.
    private var subEntities: SubEntityReader

    private struct SeenIdentity: Hashable {
        let root: Int
        let identity: IdentityKey
    }

    init(schema: GraphSchema, plans: [EntityPlan], tally: MappingTally) {
        self.schema = schema
        self.plans = plans
        self.tally = tally
        subEntities = SubEntityReader(schema: schema, plans: plans)
    }

    /// The converted record, or `nil` when it is rejected (its errors are in the tally).
    ///
    /// - Parameter prepared: the record's attributes, and its nested records', already converted
    ///   with `plan` (``FieldPreparer``).
    func convert(
        _ json: JSONValue, as plan: EntityPlan, origin: String, index: Int, fill: PayloadFill?,
        prepared: PreparedRecord? = nil
    ) -> PendingRecord? {
        self.origin = origin
        self.index = index
        visited.removeAll(keepingCapacity: true)
        seen.removeAll(keepingCapacity: true)
        lacking.removeAll()
        if case .null = json {
            skipNull(plan)
            return nil
        }
        let converted = node(json, declared: plan, path: RecordPath(), fill: fill, prepared: prepared)
        if case .rejected = converted { lacking.reject(into: tally, plans: plans, origin: origin, index: index) }
        switch converted {
        case .record(let record): return record
        case .declined: return nil
        case .rejected:
            for type in visited { tally.counts[type].rejected += 1 }
            return nil
        }
    }

    /// What became of one record.
    enum Converted {
        case record(PendingRecord)
        case rejected
        /// Its type key names no entity, and its entity says `unknown_type: skip`.
        case declined
    }

    // MARK: - Records

    /// One record at `path` (empty for the top level, `projects.1` for a nested one).
    ///
    /// `prepared` was converted with `declared`: it is used only while the record keeps that plan.
    /// An `embedded` record is its parent's record read with another plan: never unwrapped, and
    /// its parent's keys are not its unmapped keys.
    func node(
        _ json: JSONValue, declared: EntityPlan, path: RecordPath, fill: PayloadFill?, prepared: PreparedRecord?,
        embedded: Bool = false
    ) -> Converted {
        guard case .object(let wrapped) = json else {
            count(declared)
            fail(declared, keyPath: path.text, value: json, "expected an object, found \(json.kindName)")
            return .rejected
        }
        let object = embedded ? wrapped : RecordFields.unwrapped(wrapped, element: declared.wrapper)
        var plan = declared
        var explicit = false
        if let typeKey = declared.typeKey {
            switch object[typeKey.key] {
            case .string(let text)?, .number(let text)?:
                guard let resolved = declared.resolveType(text, in: schema) else {
                    if declared.type.mapping.unknownType == .skip {
                        tally.counts[declared.type.index].declined += 1
                        tally.touched[declared.type.index] = true
                        return .declined
                    }
                    count(declared)
                    fail(
                        declared, keyPath: path.joined(typeKey.key), value: .string(text),
                        "unknown type '\(text)' for '\(declared.type.name)'")
                    return .rejected
                }
                plan = plans[resolved]
                explicit = true
            case .null?, nil:
                break
            case let other?:
                count(declared)
                fail(
                    declared, keyPath: path.joined(typeKey.key), value: other,
                    "a type must be a string, found \(other.kindName)")
                return .rejected
            }
        }
        var fields = explicit ? RecordFields.read(object, plan) : prepared?.fields ?? RecordFields.read(object, plan)
        fields.fill(from: fill, plan)
        let identity = plan.identityKey(of: fields.values)
        count(plan)
        if !embedded { tally.counts[plan.type.index].unmappedKeys += fields.unmapped }
        var failed = false
        if !fields.failures.isEmpty {
            failed = true
            let shown = identity.map { plan.described($0) }
            for failure in fields.failures {
                tally.errors.append(
                    RecordError(
                        entity: plan.type.name, identity: shown, attribute: failure.attribute,
                        keyPath: path.joined(failure.key), value: ValueText.display(failure.value), origin: origin,
                        index: index, message: failure.message))
            }
        }
        guard let identity else {
            let missing = plan.identity.first { fields.values[$0]?.isNull ?? true } ?? 0
            let attribute = plan.attributes[missing]
            // An identity value that could not be read is reported already.
            guard !fields.failures.contains(where: { $0.attribute == attribute.name }) else { return .rejected }
            let said = fields.values[missing] == nil ? "missing" : "null"
            fail(
                plan, attribute: attribute.name, keyPath: path.joined(attribute.key),
                "identity attribute '\(attribute.name)' is \(said): the record cannot be merged")
            return .rejected
        }
        let isNew = seen.isEmpty || !seen.contains(SeenIdentity(root: plan.type.rootIndex, identity: identity))
        // A tombstone for an object the store does not hold deletes nothing: it needs no required values.
        let tombstone = plan.type.mapping.deletion.tombstone?.matches(fields.values, of: plan.type) ?? false
        if isNew, plan.hasRequired, !tombstone {
            lacking.note(plan, values: fields.values, identity: identity, path: path, errorCount: tally.errors.count)
        }
        var record = PendingRecord(plan: plan, values: fields.values, identity: identity)
        record.typed = explicit
        record.path = path.text
        if !explicit, fields.unmapped > 0 { record.subEntityValues = subEntities.values(in: object, of: plan) }
        if !plan.nested.isEmpty {
            seen.insert(SeenIdentity(root: plan.type.rootIndex, identity: identity))
            let ahead = plan === declared ? prepared?.nested : nil
            for (position, nested) in plan.nested.enumerated() {
                switch nestedRecords(
                    object, nested, plan: plan, identity: identity, values: fields.values, path: path,
                    prepared: ahead?[position])
                {
                case .absent: break
                case .rejected: failed = true
                case .records(let records): record.nested.append((position, records))
                }
            }
        }
        return failed ? .rejected : .record(record)
    }

    /// Counts a `null` item of an array of `plan`'s records, which is skipped.
    func skipNull(_ plan: EntityPlan) {
        tally.counts[plan.type.index].nullItems += 1
        tally.touched[plan.type.index] = true
    }

    // MARK: - Helpers

    private func count(_ plan: EntityPlan) {
        tally.countFetched(plan.type.index)
        visited.append(plan.type.index)
    }

    func fail(
        _ plan: EntityPlan, identity: String? = nil, attribute: String? = nil, keyPath: String?,
        value: JSONValue? = nil, _ message: String
    ) {
        tally.errors.append(
            RecordError(
                entity: plan.type.name, identity: identity, attribute: attribute, keyPath: keyPath,
                value: value.map { ValueText.display($0) }, origin: origin, index: index, message: message))
    }
}

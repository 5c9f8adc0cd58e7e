/// Converts one payload record, with its nested records, into a
/// ``PendingRecord``, reporting every problem found; it reads the graph but
/// never changes it.
///
/// A record is rejected when any of its values cannot be read, its identity is
/// missing, a required attribute of an object new to the store is missing or null, its type
/// key names no entity, or any record nested in it is rejected: a parent stands
/// or falls with its nested records, so that a `replace` relationship never
/// loses a member because one nested record was bad.
final class RecordConverter {
    private let graph: ObjectGraph
    private let plans: [EntityPlan]
    private let tally: MappingTally
    private var origin = ""
    private var index = 0
    /// Entities of the records visited in the current top-level record, for counting a rejection.
    private var visited: [Int] = []
    /// Identities met in the current top-level record: seen again, they are not new objects.
    private var seen = Set<SeenIdentity>()
    /// Identities the store held before the run: not new objects either.
    var stored = StoredIdentities()

    private struct SeenIdentity: Hashable {
        let root: Int
        let identity: IdentityKey
    }

    init(graph: ObjectGraph, plans: [EntityPlan], tally: MappingTally) {
        self.graph = graph
        self.plans = plans
        self.tally = tally
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
        let record = node(json, declared: plan, path: RecordPath(), fill: fill, prepared: prepared)
        if record == nil {
            for type in visited { tally.counts[type].rejected += 1 }
        }
        return record
    }

    // MARK: - Records

    /// One record at `path` (empty for the top level, `projects.1` for a nested one).
    ///
    /// `prepared` was converted with `declared`: it is used only while the record keeps that plan.
    private func node(
        _ json: JSONValue, declared: EntityPlan, path: RecordPath, fill: PayloadFill?, prepared: PreparedRecord?
    ) -> PendingRecord? {
        guard case .object(let wrapped) = json else {
            count(declared)
            fail(declared, keyPath: path.text, value: json, "expected an object, found \(json.kindName)")
            return nil
        }
        let object = Self.unwrapped(wrapped, element: declared.wrapper)
        var plan = declared
        var explicit = false
        if let typeKey = declared.typeKey {
            switch object[typeKey.key] {
            case .string(let text)?, .number(let text)?:
                guard let resolved = resolveType(text, in: declared) else {
                    count(declared)
                    fail(
                        declared, keyPath: join(path, typeKey.key), value: .string(text),
                        "unknown type '\(text)' for '\(declared.type.name)'")
                    return nil
                }
                plan = plans[resolved]
                explicit = true
            case .null?, nil:
                break
            case let other?:
                count(declared)
                fail(
                    declared, keyPath: join(path, typeKey.key), value: other,
                    "a type must be a string, found \(other.kindName)")
                return nil
            }
        }
        var fields = explicit ? Self.fields(of: object, plan) : prepared?.fields ?? Self.fields(of: object, plan)
        apply(fill, to: &fields, plan)
        var identity = identityKey(fields.values, plan)
        var existing = identity.flatMap { graph.object(root: plan.type.rootIndex, identity: $0) }
        if !explicit, let known = existing, known.type !== plan.type,
            graph.schema.model.entity(known.type.mapping, isKindOf: plan.type.name)
        {
            // A record that does not say its type keeps the sub-entity the object already has.
            plan = plans[known.type.index]
            fields = Self.fields(of: object, plan)
            apply(fill, to: &fields, plan)
            identity = identityKey(fields.values, plan)
            existing = identity.flatMap { graph.object(root: plan.type.rootIndex, identity: $0) }
        }
        count(plan)
        tally.counts[plan.type.index].unmappedKeys += fields.unmapped
        var failed = false
        if !fields.failures.isEmpty {
            failed = true
            let shown = identity.map { describe($0, plan) }
            for failure in fields.failures {
                tally.errors.append(
                    RecordError(
                        entity: plan.type.name, identity: shown, attribute: failure.attribute,
                        keyPath: join(path, failure.key), value: ValueText.display(failure.value), origin: origin,
                        index: index, message: failure.message))
            }
        }
        guard let identity else {
            let missing = plan.identity.first { fields.values[$0]?.isNull ?? true } ?? 0
            let attribute = plan.attributes[missing]
            // An identity value that could not be read is reported already.
            guard !fields.failures.contains(where: { $0.attribute == attribute.name }) else { return nil }
            let said = fields.values[missing] == nil ? "missing" : "null"
            fail(
                plan, attribute: attribute.name, keyPath: join(path, attribute.key),
                "identity attribute '\(attribute.name)' is \(said): the record cannot be merged")
            return nil
        }
        let inStore =
            (plan.hasRequired || plan.hasDefaults) && stored.contains(root: plan.type.rootIndex, identity: identity)
        let isNew =
            existing == nil && !inStore
            && (seen.isEmpty || !seen.contains(SeenIdentity(root: plan.type.rootIndex, identity: identity)))
        // A tombstone for an object the store does not hold deletes nothing: it needs no required values.
        let tombstone = plan.type.mapping.deletion.tombstone?.matches(fields.values, of: plan.type) ?? false
        if isNew, plan.hasRequired, !tombstone {
            for attribute in plan.attributes where attribute.required {
                guard let value = fields.values[attribute.position] ?? attribute.defaultValue, !value.isNull else {
                    let said = fields.values[attribute.position] == nil ? "missing" : "null"
                    fail(
                        plan, identity: describe(identity, plan), attribute: attribute.name,
                        keyPath: join(path, attribute.key), "required attribute is \(said) on a new object")
                    failed = true
                    continue
                }
            }
        }
        var record = PendingRecord(plan: plan, values: fields.values, identity: identity, existing: existing)
        record.stored = inStore
        if !plan.nested.isEmpty {
            seen.insert(SeenIdentity(root: plan.type.rootIndex, identity: identity))
            let ahead = plan === declared ? prepared?.nested : nil
            for (position, nested) in plan.nested.enumerated() {
                switch nestedRecords(
                    object, nested, plan: plan, identity: identity, path: path, prepared: ahead?[position])
                {
                case .absent: break
                case .rejected: failed = true
                case .records(let records): record.nested.append((position, records))
                }
            }
        }
        return failed ? nil : record
    }

    private enum Nested {
        case absent, rejected
        case records([PendingRecord]?)
    }

    /// The records a nested relationship's key holds: `.records(nil)` for `null`.
    ///
    /// - Parameter prepared: the records' attributes converted ahead, one per element.
    private func nestedRecords(
        _ object: JSONObject, _ nested: NestedPlan, plan: EntityPlan, identity: IdentityKey, path: RecordPath,
        prepared: [PreparedRecord]?
    ) -> Nested {
        let keyPath = join(path, nested.key)
        let value: JSONValue
        switch Self.lookup(object[plan.slots[nested.slot]], rest: nested.rest) {
        case .missing: return .absent
        case .found(.null): return .records(nil)
        case .found(let found): value = found
        case .notAnObject(let found, let key):
            fail(
                plan, identity: describe(identity, plan), keyPath: keyPath, value: found,
                "expected an object at '\(key)', found \(found.kindName)")
            return .rejected
        }
        let destination = plans[nested.destination.index]
        switch (value, nested.toMany) {
        case (.array(let array), true):
            let items = ScalarRecord.records(array, for: destination.type) ?? array
            var records: [PendingRecord] = []
            records.reserveCapacity(items.count)
            var rejected = false
            for (offset, item) in items.enumerated() {
                if let record = node(
                    item, declared: destination, path: RecordPath(key: keyPath, offset: offset), fill: nil,
                    prepared: prepared?[offset])
                {
                    records.append(record)
                } else {
                    rejected = true
                }
            }
            return rejected ? .rejected : .records(records)
        case (.object, false):
            guard
                let record = node(
                    value, declared: destination, path: RecordPath(key: keyPath), fill: nil, prepared: prepared?[0])
            else {
                return .rejected
            }
            return .records([record])
        default:
            let expected = nested.toMany ? "an array of objects" : "an object"
            fail(
                plan, identity: describe(identity, plan), keyPath: keyPath, value: value,
                "relationship '\(nested.name)' expects \(expected), found \(value.kindName)")
            return .rejected
        }
    }

    // MARK: - Attributes

    /// Every attribute's value and the count of unmapped keys. Reads nothing but the record
    /// and the plan, so it may run on any thread that owns the plan (``FieldPreparer``).
    static func fields(of object: JSONObject, _ plan: EntityPlan) -> ConvertedFields {
        var fields = ConvertedFields(values: plan.takeValues())
        withUnsafeTemporaryAllocation(of: Int.self, capacity: plan.slots.count) { positions in
            fields.unmapped = object.members.count - plan.locate(object, into: positions)
            for attribute in plan.attributes {
                let position = positions[attribute.slot]
                guard position >= 0 else { continue }
                switch Self.lookup(object.members[position].value, rest: attribute.rest) {
                case .missing:
                    continue
                case .notAnObject(let found, let key):
                    fields.failures.append(
                        (
                            attribute.name, attribute.key, found,
                            "expected an object at '\(key)', found \(found.kindName)"
                        ))
                case .found(let json):
                    switch attribute.value(from: json) {
                    case .success(let value): fields.values[attribute.position] = value
                    case .failure(let failure):
                        fields.failures.append((attribute.name, attribute.key, failure.value, failure.message))
                    }
                }
            }
        }
        return fields
    }

    /// The payload's fill for the keys the record lacks.
    private func apply(_ fill: PayloadFill?, to fields: inout ConvertedFields, _ plan: EntityPlan) {
        guard let fill else { return }
        for (position, value) in fill.entries(for: plan.type) where fields.values[position] == nil {
            fields.values[position] = value
        }
    }

    enum Lookup {
        case missing
        case found(JSONValue)
        /// A value that is not an object where the key path goes on, and the key it was under.
        case notAnObject(JSONValue, key: String)
    }

    /// Follows `rest` from `value`: a missing object on the way means missing, a `null` one means `null`.
    static func lookup(_ value: JSONValue?, rest: [String]) -> Lookup {
        guard var current = value else { return .missing }
        var parent = ""
        for key in rest {
            switch current {
            case .object(let object):
                guard let next = object[key] else { return .missing }
                current = next
                parent = key
            case .null:
                return .found(.null)
            default:
                return .notAnObject(current, key: parent)
            }
        }
        return .found(current)
    }

    // MARK: - Helpers

    /// `{"person": {...}}` -> `{...}` when `element` is the record's only key.
    static func unwrapped(_ object: JSONObject, element: String?) -> JSONObject {
        guard let element, object.members.count == 1, object.members[0].key == element,
            case .object(let inner) = object.members[0].value
        else { return object }
        return inner
    }

    private func resolveType(_ text: String, in plan: EntityPlan) -> Int? {
        if let type = plan.types[text] { return type }
        if let cached = plan.camelizedTypes[text] { return cached }
        let type = plan.types[graph.schema.model.inflector.camelize(text)]
        plan.camelizedTypes[text] = type
        return type
    }

    private func identityKey(_ values: [Value?], _ plan: EntityPlan) -> IdentityKey? {
        var key: [Value] = []
        key.reserveCapacity(plan.identity.count)
        for position in plan.identity {
            guard let value = values[position], !value.isNull else { return nil }
            key.append(value)
        }
        return key.isEmpty ? nil : IdentityKey(key)
    }

    private func describe(_ identity: IdentityKey, _ plan: EntityPlan) -> String {
        zip(plan.identity, identity.values).map { "\(plan.attributes[$0].name)=\(ValueText.display($1))" }
            .joined(separator: ", ")
    }

    private func count(_ plan: EntityPlan) {
        tally.countFetched(plan.type.index)
        visited.append(plan.type.index)
    }

    private func fail(
        _ plan: EntityPlan, identity: String? = nil, attribute: String? = nil, keyPath: String?,
        value: JSONValue? = nil, _ message: String
    ) {
        tally.errors.append(
            RecordError(
                entity: plan.type.name, identity: identity, attribute: attribute, keyPath: keyPath,
                value: value.map { ValueText.display($0) }, origin: origin, index: index, message: message))
    }

    private func join(_ path: RecordPath, _ key: String) -> String {
        path.text.map { "\($0).\(key)" } ?? key
    }
}

/// A record's attribute values as converted (`nil` where it has no key), the
/// problems met, and how many of its keys map to nothing.
struct ConvertedFields: Sendable {
    var values: [Value?]
    var failures: [(attribute: String, key: String, value: JSONValue, message: String)] = []
    var unmapped = 0
}

/// Where a record sits inside its top-level record (`projects.1`), spelled out
/// only when an error names it: most records have none, and a string per
/// nested record cost the mapping thread a formatting and an allocation each.
private struct RecordPath {
    /// The key path of the relationship that holds the record (`nil`: top level).
    var key: String?
    /// The record's position in that relationship's array.
    var offset: Int?

    var text: String? {
        guard let key else { return nil }
        return offset.map { "\(key).\($0)" } ?? key
    }
}

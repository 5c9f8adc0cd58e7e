/// Converts the attributes of a payload file's records, top-level and nested,
/// on the thread that parses the file, ahead of ``RecordMapper``, which does the
/// rest (identity, the graph) on its own thread.
///
/// It keeps ``EntityPlan``s of its own (``Confined``), since plans keep scratch
/// state: made before the parsing thread starts, they are used by that thread alone.
/// Only the records' entity and the entities nested in it (transitively) get one, so a
/// payload costs what its entity reaches, not the model's size.
/// Transformers are `Sendable` and pure.
///
/// What it cannot decide is left to the mapper: records whose type key picks their
/// entity, embedded records, and nested values that are not objects (scalar arrays, `null`
/// items, mistakes to report).
final class FieldPreparer: Sendable {
    /// By entity position: the plans of the records' entity and of every entity nested in it.
    private let plans: Confined<[Int: EntityPlan]>
    private let type: Int

    /// A preparer for records of `type`; `nil` when a record's type key picks its entity,
    /// which the mapper decides.
    init?(type: EntityType, schema: GraphSchema, transformers: [String: any Transformer]) {
        guard type.mapping.typeKey == nil else { return nil }
        var plans: [Int: EntityPlan] = [:]
        var waiting = [type]
        while let next = waiting.popLast() {
            guard plans[next.index] == nil else { continue }
            let plan = EntityPlan(type: next, schema: schema, transformers: transformers)
            plans[next.index] = plan
            waiting += plan.nested.map(\.destination)
        }
        self.plans = Confined(plans)
        self.type = type.index
    }

    /// A top-level record's attributes and its nested records' (`nil` for a whole document
    /// or a value that is not an object).
    func prepare(_ item: JSONStreamItem) -> PreparedRecord? {
        guard !item.isWholeDocument, case .object(let object) = item.value, let plan = plans.value[type] else {
            return nil
        }
        return prepare(object, plan)
    }

    private func prepare(_ wrapped: JSONObject, _ plan: EntityPlan) -> PreparedRecord {
        let object = RecordFields.unwrapped(wrapped, element: plan.wrapper)
        var record = PreparedRecord(fields: RecordFields.read(object, plan))
        guard !plan.nested.isEmpty else { return record }
        record.nested = plan.nested.map { nested in
            // An embedded record is the record itself, which the mapper reads.
            guard let destination = plans.value[nested.destination.index], destination.typeKey == nil,
                let slot = nested.slot
            else { return nil }
            switch RecordFields.lookup(object[plan.slots[slot]], rest: nested.rest) {
            case .found(.array(let items)) where nested.toMany:
                var records: [PreparedRecord] = []
                records.reserveCapacity(items.count)
                for item in items {
                    guard case .object(let child) = item else { return nil }
                    records.append(prepare(child, destination))
                }
                return records
            case .found(.object(let child)) where !nested.toMany:
                return [prepare(child, destination)]
            default:
                return nil
            }
        }
        return record
    }
}

/// A record's attributes converted ahead of the mapper (``FieldPreparer``), with
/// those of the records nested in it.
struct PreparedRecord: Sendable {
    var fields: ConvertedFields
    /// By nested relationship (the plan's `nested` order): the prepared records of its
    /// array, or of its object as one; `nil` where they were left to the mapper.
    var nested: [[PreparedRecord]?] = []
}

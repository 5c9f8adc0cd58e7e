/// Applies converted records to the graph: upserts each object by identity,
/// sets the values the record carried (defaults too, for an object new to the store) and
/// links nested records.
final class GraphWriter {
    private let graph: ObjectGraph
    private let tally: MappingTally
    /// When set, collects every object applied (nested ones too): their rows (in their root
    /// entity's table) by entity index.
    var collected: [Int: [Int32]]?

    init(graph: ObjectGraph, tally: MappingTally) {
        self.graph = graph
        self.tally = tally
    }

    /// The record's object after applying it; it came from the `index`th record of the payload `origin`.
    @discardableResult
    func apply(_ record: PendingRecord, origin: String, index: Int) -> GraphObject {
        let plan = record.plan
        let object: GraphObject
        let created: Bool
        var values = record.values
        if plan.hasDefaults { fillDefaults(&values, plan, newToStore: false) }
        if let existing = record.existing, existing.type === plan.type {
            // What `upsert` does for a known object of the same entity, without looking it up again.
            existing.setOrigin(origin, index: index)
            (object, created) = (existing, false)
        } else {
            // Every default only if this creates the object (an identity met twice in one record does not).
            var fresh = values
            if plan.hasDefaults, !record.stored { fillDefaults(&fresh, plan, newToStore: true) }
            (object, created) = graph.upsert(
                plan.type, identity: record.identity, source: origin, index: index, values: fresh)
        }
        if created {
            tally.counts[plan.type.index].created += 1
        } else {
            var merged = object.values
            for (position, value) in values.enumerated() where value != nil { merged[position] = value }
            object.values = merged
            tally.counts[plan.type.index].updated += 1
        }
        collected?[plan.type.index, default: []].append(Int32(object.row))
        // The graph keeps its own copy of the values: the array goes back to the plan for the next record.
        plan.returnValues(record.values)
        for (index, records) in record.nested {
            let nested = plan.nested[index]
            if let records {
                RelationshipLinker.assign(records.map { apply($0, origin: origin, index: index) }, to: object, nested)
            } else {
                RelationshipLinker.clear(object, nested)
            }
        }
        return object
    }

    /// Fills the keys a record lacks: every default for an object new to the store, and
    /// `default_on_missing` ones for any object (MAPPING.md §8).
    private func fillDefaults(_ values: inout [Value?], _ plan: EntityPlan, newToStore: Bool) {
        for attribute in plan.attributes where values[attribute.position] == nil {
            guard newToStore || attribute.defaultOnMissing else { continue }
            values[attribute.position] = attribute.defaultValue
        }
    }
}

/// Applies converted records to the graph: upserts each object by identity,
/// sets the values the record carried (defaults too, for a new object) and
/// links nested records.
final class GraphWriter {
    private let graph: ObjectGraph
    private let tally: MappingTally

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
        if let existing = record.existing, existing.type === plan.type {
            // What `upsert` does for a known object of the same entity, without looking it up again.
            existing.setOrigin(origin, index: index)
            (object, created) = (existing, false)
        } else {
            var values = record.values
            if plan.hasDefaults {
                for attribute in plan.attributes where values[attribute.position] == nil {
                    values[attribute.position] = attribute.defaultValue
                }
            }
            (object, created) = graph.upsert(
                plan.type, identity: record.identity, source: origin, index: index, values: values)
        }
        if created {
            tally.counts[plan.type.index].created += 1
        } else {
            var values = object.values
            for (position, value) in record.values.enumerated() where value != nil { values[position] = value }
            object.values = values
            tally.counts[plan.type.index].updated += 1
        }
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
}

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
            (object, created) = graph.upsert(
                plan.type, identity: record.identity, source: origin, index: index, values: record.values)
        }
        if created {
            // The new object holds the record's values array itself.
            if plan.hasDefaults {
                for attribute in plan.attributes where record.values[attribute.position] == nil {
                    object.values[attribute.position] = attribute.defaultValue
                }
            }
            tally.counts[plan.type.index].created += 1
        } else {
            for (position, value) in record.values.enumerated() where value != nil {
                object.values[position] = value
            }
            tally.counts[plan.type.index].updated += 1
            plan.returnValues(record.values)
        }
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

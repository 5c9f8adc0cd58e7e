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

    /// The record's object after applying it; `origin` names the record, e.g. `people.json#3`.
    @discardableResult
    func apply(_ record: PendingRecord, origin: String) -> GraphObject {
        let plan = record.plan
        let (object, created) = graph.upsert(plan.type, identity: record.identity, origin: origin)
        if created {
            var values = record.values
            if plan.hasDefaults {
                for attribute in plan.attributes where values[attribute.position] == nil {
                    values[attribute.position] = attribute.defaultValue
                }
            }
            object.values = values
            tally.counts[plan.type.index].created += 1
        } else {
            for (position, value) in record.values.enumerated() where value != nil {
                object.values[position] = value
            }
            tally.counts[plan.type.index].updated += 1
        }
        for (index, records) in record.nested {
            let nested = plan.nested[index]
            if let records {
                RelationshipLinker.assign(records.map { apply($0, origin: origin) }, to: object, nested)
            } else {
                RelationshipLinker.clear(object, nested)
            }
        }
        return object
    }
}

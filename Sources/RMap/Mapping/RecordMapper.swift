/// The map stage: reads payloads record by record into an ``ObjectGraph``.
///
/// Each record becomes one object, found or created by its identity in the
/// identity map of its root entity, so the same identity met twice (in two
/// payloads, or nested and top-level) is one object that later records
/// update. A record updates only the attributes whose keys it has: `null`
/// clears a value, a missing key leaves it. Defaults fill a new object's
/// missing keys. Nested relationships are mapped with their destination's
/// mapping and linked both ways.
///
/// A record that cannot be mapped is rejected whole (nothing of it, nor of the
/// records nested in it, reaches the graph); its ``RecordError``s are
/// collected in ``report`` and mapping goes on.
///
/// ```swift
/// let graph = ObjectGraph(schema: GraphSchema(model: model))
/// let mapper = RecordMapper(graph: graph, transformers: BuiltinTransformers.all)
/// try mapper.map(Payload(origin: "people.json", entity: "CRMPerson", body: .file(path: "people.json")))
/// for error in mapper.report.errors { print(error) }
/// ```
///
/// Not thread-safe: one mapper and its graph belong to one task.
public final class RecordMapper {
    /// The graph the records go into.
    public let graph: ObjectGraph
    private let plans: [EntityPlan]
    private let tally: MappingTally
    private let converter: RecordConverter
    private let writer: GraphWriter

    /// Creates a mapper for `graph`'s schema.
    ///
    /// - Parameters:
    ///   - graph: the graph to fill; it may already hold objects, which records then update.
    ///   - transformers: the transformers attributes' `transform:` may name. A
    ///     name missing here rejects every record that carries a value for that attribute.
    public init(graph: ObjectGraph, transformers: [String: any Transformer]) {
        self.graph = graph
        let schema = graph.schema
        plans = schema.types.map { EntityPlan(type: $0, schema: schema, transformers: transformers) }
        tally = MappingTally(typeCount: schema.types.count)
        converter = RecordConverter(graph: graph, plans: plans, tally: tally)
        writer = GraphWriter(graph: graph, tally: tally)
    }

    /// The counts and the errors of every payload mapped so far.
    public var report: MappingReport { tally.report(graph.schema) }

    /// Maps every record of a payload.
    ///
    /// A `.file` body is streamed: a top-level array or a JSON Lines file is
    /// read record by record, never whole; `records:` applies only to a file
    /// whose top level is an object. A `.document` body is searched for its
    /// records (``RecordSelection``); `.records` are records already. Elements
    /// wrapped in the entity's element name (`{"person": {...}}`) are unwrapped
    /// unless the entity's `root` is `bare`.
    ///
    /// - Throws: ``JSONError`` when the file cannot be read or is not JSON;
    ///   ``FetchError`` when the payload names an unknown entity or holds no
    ///   records where its mapping says. Records mapped before the error stay mapped.
    public func map(_ payload: Payload) throws {
        guard let type = graph.schema.type(named: payload.entity) else {
            throw FetchError(origin: payload.origin, message: "payload for unknown entity '\(payload.entity)'")
        }
        let plan = plans[type.index]
        tally.touched[type.index] = true
        let fill = payload.fill.isEmpty ? nil : PayloadFill(payload.fill, typeCount: plans.count)
        let origin = payload.origin
        switch payload.body {
        case .records(let records):
            for (index, record) in records.enumerated() { map(record, plan, origin: origin, index: index, fill: fill) }
        case .document(let document):
            let records = try RecordSelection.records(in: document, for: type.mapping, origin: origin)
            for (index, record) in records.enumerated() { map(record, plan, origin: origin, index: index, fill: fill) }
        case .file(let path):
            try JSONFileStream(path: path).forEach { item in
                if item.isWholeDocument {
                    let records = try RecordSelection.records(in: item.value, for: type.mapping, origin: origin)
                    for (index, record) in records.enumerated() { map(record, plan, origin: origin, index: index, fill: fill) }
                } else {
                    map(item.value, plan, origin: origin, index: item.index, fill: fill)
                }
            }
        }
    }

    private func map(_ record: JSONValue, _ plan: EntityPlan, origin: String, index: Int, fill: PayloadFill?) {
        guard let pending = converter.convert(record, as: plan, origin: origin, index: index, fill: fill) else { return }
        writer.apply(pending, origin: "\(origin)#\(index)")
    }
}

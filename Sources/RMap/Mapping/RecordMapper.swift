/// The map stage: reads payloads record by record into the run's staging tables
/// (``StageWriter``), where the store's engine merges them.
///
/// Each record becomes one occurrence of its object, keyed by its identity in its
/// root entity's table, so the same identity met twice (in two payloads, or nested
/// and top-level) is one object that later records update when the store collapses
/// the occurrences. Sub-entities share their root's table: a record's type key
/// picks its entity (a record without one keeps the sub-entity its object
/// already has, which the store knows).
///
/// Values: a record updates only the attributes whose keys it has; `null`
/// clears a value, a missing key (or a missing object on a key path) leaves
/// it. A value map turns payload text into stored text before conversion; a
/// value the map does not list is stored as sent. Transformers run after
/// conversion, never on `null`. Defaults fill the missing keys of an object new
/// to the store, `default_on_missing` ones any object's (both in the store's merge),
/// and a payload's `fill` fills the keys its records lack. Keys that map to nothing
/// are counted (``EntityMappingCounts/unmappedKeys``), not stored.
///
/// Nested relationships are mapped with their destination's mapping, to any
/// depth, and linked both ways (the inverse too). `replace` makes the payload's
/// records the whole set, `union` adds them; `null` empties the relationship
/// and a missing key keeps it.
///
/// Rejection: a record that cannot be mapped is rejected whole, with a
/// ``RecordError`` for each problem, and mapping goes on. Everything is
/// converted and checked before anything is staged, so a rejected record
/// changes nothing. A record without a complete identity is
/// rejected (it could not be merged), nested or not. A rejected nested record
/// rejects the record it is nested in, up to the top-level record: a parent
/// stands or falls with its nested records, so a `replace` set never silently
/// loses a member.
///
/// ```swift
/// let schema = GraphSchema(model: model)
/// let layout = StageLayout(store: StoreLayout(schema: schema), schema: schema)
/// let mapper = RecordMapper(
///     schema: schema, transformers: BuiltinTransformers.all,
///     stage: StageWriter(layout: layout) { batch in try channel.submit(batch) })
/// try mapper.map(Payload(origin: "people.json", entity: "CRMPerson", body: .file(path: "people.json")))
/// for error in mapper.report.errors { print(error) }
/// ```
///
/// Not thread-safe: one mapper and its stage writer belong to one task.
package final class RecordMapper {
    /// The entities the records map to.
    let schema: GraphSchema
    private let plans: [EntityPlan]
    private let tally: MappingTally
    private let converter: RecordConverter
    private let transformers: [String: any Transformer]
    /// Where records go: the run's staging tables; `required` is checked there (``RequiredCheck``).
    let stage: StageWriter

    /// Creates a mapper for `schema`'s entities.
    ///
    /// - Parameters:
    ///   - transformers: the transformers attributes' `transform:` may name. A
    ///     name missing here rejects every record that carries a value for that attribute.
    ///   - stage: the writer of the run's staging tables.
    init(schema: GraphSchema, transformers: [String: any Transformer], stage: StageWriter) {
        self.schema = schema
        self.transformers = transformers
        self.stage = stage
        plans = schema.types.map { EntityPlan(type: $0, schema: schema, transformers: transformers) }
        tally = MappingTally(typeCount: schema.types.count)
        converter = RecordConverter(schema: schema, plans: plans, tally: tally)
    }

    /// A mapper that checks payloads without a store: records are converted and staged into
    /// batches that go nowhere (the conformance suites and the fuzzers map this way).
    package convenience init(checking schema: GraphSchema, transformers: [String: any Transformer]) {
        let layout = StageLayout(store: StoreLayout(schema: schema), schema: schema)
        self.init(schema: schema, transformers: transformers, stage: StageWriter(layout: layout) { _ in })
    }

    /// Adds rejections found after mapping (``RequiredCheck``) to the report.
    func add(_ rejections: RequiredCheck.Rejections) {
        for error in rejections.withdrawn.sorted(by: >) { tally.errors.remove(at: error) }
        tally.errors += rejections.errors
        for (entity, count) in rejections.counts where tally.counts.indices.contains(entity) {
            tally.counts[entity].rejected += count
            tally.touched[entity] = true
        }
    }

    /// The errors for required values lacking in records rejected for another reason, which the
    /// store confirms or withdraws (``RequiredCheck/run(on:candidates:)``, then ``add(_:)``).
    var requiredCandidates: [RequiredCheck.Candidate] {
        get { tally.requiredCandidates }
        set { tally.requiredCandidates = newValue }
    }

    /// When set, collects the identity of each record's object as payloads are mapped.
    var identified: [IdentityKey]?

    /// The counts and the errors of every payload mapped so far.
    package var report: MappingReport { tally.report(schema) }

    /// The records the last payload mapped brought, by entity index (the entities it brought none of left out).
    var fetchedInLastPayload: [(index: Int, added: Int)] {
        tally.countedInPayload.map { ($0.index, tally.counts[$0.index].fetched - $0.before) }
    }

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
    package func map(_ payload: Payload) throws {
        guard let type = schema.type(named: payload.entity) else {
            throw FetchError(origin: payload.origin, message: "payload for unknown entity '\(payload.entity)'")
        }
        let plan = plans[type.index]
        tally.startPayload()
        tally.touched[type.index] = true
        let fill = payload.fill.isEmpty ? nil : PayloadFill(payload.fill, typeCount: plans.count)
        let origin = payload.origin
        switch payload.body {
        case .records(let records):
            for (index, record) in records.enumerated() {
                try map(record, plan, origin: origin, index: index, fill: fill)
            }
        case .document(let document):
            let records = try RecordSelection.records(in: document, for: type.mapping, origin: origin)
            for (index, record) in records.enumerated() {
                try map(record, plan, origin: origin, index: index, fill: fill)
            }
        case .file(let path):
            // The thread that parses the file also converts records' attributes while it is ahead.
            let preparer = FieldPreparer(type: type, schema: schema, transformers: transformers)
            func each(_ item: JSONStreamItem, prepared: PreparedRecord?) throws {
                if item.isWholeDocument {
                    let records = try RecordSelection.records(in: item.value, for: type.mapping, origin: origin)
                    for (index, record) in records.enumerated() {
                        try map(record, plan, origin: origin, index: index, fill: fill)
                    }
                } else {
                    try map(item.value, plan, origin: origin, index: item.index, fill: fill, prepared: prepared)
                }
            }
            try JSONFileStream(path: path).forEach(
                prepare: { preparer?.prepare($0) }, { item, prepared in try each(item, prepared: prepared ?? nil) })
        }
    }

    private func map(
        _ record: JSONValue, _ plan: EntityPlan, origin: String, index: Int, fill: PayloadFill?,
        prepared: PreparedRecord? = nil
    ) throws {
        guard
            let pending = converter.convert(
                record, as: plan, origin: origin, index: index, fill: fill, prepared: prepared)
        else { return }
        try stage.stage(pending, origin: origin, index: index)
        pending.plan.returnValues(pending.values)
        identified?.append(pending.identity)
    }
}

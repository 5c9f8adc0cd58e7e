import RMap

/// Maps JSON documents with a model given as YAML text, for the mapping tests.
struct MappingHarness {
    let graph: ObjectGraph
    let mapper: RecordMapper

    init(_ yaml: String, transformers: [String: any Transformer] = BuiltinTransformers.all) throws {
        graph = try ModelFixtures.graph(yaml)
        mapper = RecordMapper(graph: graph, transformers: transformers)
    }

    /// Maps a JSON document for `entity`.
    func map(_ json: String, entity: String, origin: String = "payload.json", fill: [String: Value] = [:]) throws {
        let document = try ModelFixtures.json(json, origin: origin)
        try mapper.map(Payload(origin: origin, entity: entity, body: .document(document), fill: fill))
    }

    /// The object of `entity` with an integer identity.
    func object(_ entity: String, _ id: Int64) throws(GraphError) -> GraphObject? {
        try graph.object(of: entity, identity: [.int(id)])
    }

    var errors: [RecordError] { mapper.report.errors }

    func counts(_ entity: String) -> EntityMappingCounts? { mapper.report.entities[entity] }
}

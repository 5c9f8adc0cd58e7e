import Foundation

@testable import RMap

/// One run without a source, as ``Pipeline`` does it: JSON payloads mapped knowing what
/// the store holds, then connected and written.
enum MappedRun {
    /// Maps each (entity, JSON array) payload with the model `yaml`, connects the graph and writes it to `store`.
    @discardableResult
    static func run(_ yaml: String, _ payloads: [(entity: String, json: String)], into store: any BackendStore) throws
        -> (mapping: MappingReport, written: WriteReport)
    {
        let schema = GraphSchema(model: try StoreFixtures.model(yaml))
        let graph = ObjectGraph(schema: schema)
        let mapper = RecordMapper(graph: graph, transformers: [:])
        mapper.storedIdentities = try store.storedIdentities(schema: schema)
        for (entity, json) in payloads {
            let document = try ModelFixtures.json(json)
            try mapper.map(Payload(origin: "\(entity).json", entity: entity, body: .document(document)))
        }
        _ = Connector(schema: schema).connect(graph)
        return (mapper.report, try store.write(graph, request: WriteRequest()))
    }
}

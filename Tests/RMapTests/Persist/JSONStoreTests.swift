import Foundation
import RMap
import RMapSQLite
import Testing

@Suite("JSON store")
struct JSONStoreTests {
    typealias F = StoreFixtures

    @Test("the document holds each table, its join tables and the base")
    func document() throws {
        let path = try F.temporaryDirectory().appendingPathComponent("graph.json").path
        let registry = PluginRegistry()
        registry.registerSQLite()
        #expect(registry.catalog.stores["json"] == ["path", "busy_timeout"])
        #expect(registry.catalog.stores["memory"] == [])
        let model = try F.model(F.crm + "\nstore: { plugin: json, path: \(path) }\n")
        let config = try #require(model.store)
        let store = try #require(try registry.makeStore(config) as? any BackendStore)
        _ = try store.write(F.crmGraph(GraphSchema(model: model)), request: WriteRequest())

        let document = try JSONReader.parse(try Data(contentsOf: URL(fileURLWithPath: path)), origin: path)
        let object = try #require(document.object)
        #expect(object.keys.sorted() == ["_base", "people", "projects", "projects_team_members"])
        #expect(
            JSONWriter.serialize(try #require(object["projects"])) == #"[{"id":10,"name":"Apollo","person_id":2,"#
                + #""team_member_ids":[1,2],"owner_id":1}]"#)
        #expect(object["_base"]?.object?["projects"] == object["projects"])
        #expect(
            JSONWriter.serialize(try #require(object["projects_team_members"]))
                == #"[{"project_id":10,"team_member_id":1},{"project_id":10,"team_member_id":2}]"#)
    }

    @Test("a failed write leaves the file untouched")
    func failedWrite() throws {
        let path = try F.temporaryDirectory().appendingPathComponent("graph.json").path
        let schema = try F.schema()
        _ = try JSONStore(path: path).write(F.crmGraph(schema), request: WriteRequest())
        try JSONStore(path: path).edit(schema, "CRMProject", id: 10, "name", .string("Local"))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let graph = F.crmGraph(schema, annName: .string("Changed"))
        try graph.object(of: "CRMProject", identity: [.int(10)])?.set("name", to: .string("Remote"))
        #expect(throws: ConflictError.self) { try JSONStore(path: path).write(graph, request: WriteRequest()) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}

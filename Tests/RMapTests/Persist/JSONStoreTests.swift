import Foundation
import RMap
import RMapSQLite
import Testing

@Suite("JSON store")
struct JSONStoreTests {
    typealias F = StoreFixtures

    @Test("the document holds each table, its join tables and the base")
    func document() async throws {
        let directory = try F.temporaryDirectory()
        let path = directory.appendingPathComponent("graph.json").path
        let registry = PluginRegistry()
        registry.registerSQLite()
        #expect(registry.catalog.stores["json"] == ["path", "busy_timeout"])
        #expect(registry.catalog.stores["memory"] == [])
        let model = try F.model(F.crm + "\nstore: { plugin: json, path: \(path) }\n")
        let config = try #require(model.store)
        #expect(try registry.makeStore(config) is JSONStore)
        try await F.runCRM(.json, directory)

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

    @Test("a failed run leaves the file untouched")
    func failedWrite() async throws {
        let directory = try F.temporaryDirectory()
        let path = directory.appendingPathComponent("graph.json").path
        let schema = try F.schema()
        try await F.runCRM(.json, directory)
        try JSONStore(path: path).edit(schema, "CRMProject", id: 10, "name", .string("Local"))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        await #expect(throws: ConflictError.self) {
            try await F.runCRM(.json, directory, ann: "Changed", project: "Remote")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}

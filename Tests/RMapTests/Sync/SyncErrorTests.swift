import Foundation
import RMap
import Testing

@Suite("Sync errors")
struct SyncErrorTests {
    @Test("local edits the model does not allow fail with the entity and the name at fault")
    func localEdits() throws {
        let fixture = try SyncFixture()
        let sync = fixture.sync
        let project = try #require(try sync.objects(of: "Project").first { $0["id"] == .int(10) })
        #expect(throws: SyncError.unknownEntity("Projct")) { try sync.insert("Projct", [:]) }
        #expect(throws: SyncError.noForeignKeyRelationship(entity: "Project", relationship: "client")) {
            try sync.link(project, "client", to: nil)
        }
        let error = try #require(throws: SyncError.self) { try sync.insert("Label", ["color": .string("blue")]) }
        #expect(error == .missingIdentity(entity: "Label", attribute: "name"))
        #expect(error.description == "a new Label needs its identity 'name'")
        #expect(try sync.changes().isEmpty)
    }
}

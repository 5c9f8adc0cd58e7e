import Foundation
import RMap
import Testing

/// Change detection and the request plan, on a real SQLite store, without a server.
@Suite("Push plan")
struct PushPlanTests {
    @Test("an unchanged store plans nothing")
    func nothing() throws {
        let fixture = try SyncFixture()
        #expect(try fixture.lines() == ["0 requests: 0 POST, 0 PUT, 0 DELETE"])
        #expect(
            try JSONWriter.serialize(fixture.sync.plan().json)
                == #"{"requests":[],"counts":{"POST":0,"PUT":0,"PATCH":0,"DELETE":0,"total":0}}"#)
    }

    @Test(
        "values compare by type; readonly attributes never count",
        arguments: [
            "UPDATE projects SET budget = '12.5' WHERE id = 10",
            "UPDATE projects SET budget = '12.500' WHERE id = 10",
            "UPDATE people SET seen_at = '2024-03-01T10:00:00.037Z' WHERE id = 1",
            "UPDATE people SET notes = 'edited' WHERE id = 1",
        ])
    func noChange(statement: String) throws {
        let fixture = try SyncFixture()
        try fixture.sql(statement)
        #expect(try fixture.sync.changes().isEmpty)
    }

    @Test("a changed attribute is sent under its key path, value maps in reverse")
    func keyPathsAndValueMaps() throws {
        let fixture = try SyncFixture()
        try fixture.sql("UPDATE people SET address_city = 'Paris', status = 'inactive', notes = 'x' WHERE id = 1")
        #expect(
            try fixture.lines() == [
                #"PUT /people/1.json {"person":{"address":{"city":"Paris"},"status":"I"}}"#,
                "1 request: 0 POST, 1 PUT, 0 DELETE",
            ])
    }

    @Test("root: bare sends the record without the element wrapper")
    func bareRoot() throws {
        let fixture = try SyncFixture(root: "bare")
        try fixture.sql("UPDATE labels SET color = 'blue' WHERE name = 'bug'")
        #expect(try fixture.lines().first == #"PUT /labels/bug.json {"color":"blue"}"#)
    }

    @Test("a new object is POSTed with its writable non-null attributes; a server-assigned int identity is left out")
    func creation() throws {
        let fixture = try SyncFixture()
        try fixture.sql("INSERT INTO people (id, first_name, notes) VALUES (NULL, 'Grace', 'readonly')")
        try fixture.sql("INSERT INTO labels (name, color) VALUES ('good first issue', NULL)")
        #expect(
            try fixture.lines() == [
                #"POST /people.json {"person":{"first_name":"Grace"}}"#,
                #"POST /labels.json {"label":{"name":"good first issue"}}"#,
                "2 requests: 2 POST, 0 PUT, 0 DELETE",
            ])
    }

    @Test("new parents go before their children, deleted children before their parents")
    func ordering() throws {
        let fixture = try SyncFixture()
        try fixture.sql("INSERT INTO projects (id, name, person_id) VALUES (-2, 'Child', -1)")
        try fixture.sql("INSERT INTO people (id, first_name) VALUES (-1, 'Parent')")
        try fixture.sql("DELETE FROM people WHERE id = 2")
        try fixture.sql("DELETE FROM projects WHERE id = 11")
        let plan = try fixture.sync.plan()
        #expect(
            plan.requests.map { "\($0.method) \($0.path)" } == [
                "POST /people.json", "POST /projects.json", "DELETE /projects/11.json", "DELETE /people/2.json",
            ])
        #expect(plan.requests.map(\.dependencies) == [[], [0], [], [2]])
    }

    @Test("the library API's edits are pending changes")
    func libraryEdits() throws {
        let fixture = try SyncFixture()
        let sync = fixture.sync
        let grace = try sync.insert("Person", ["firstName": .string("Grace")])
        let project = try #require(try sync.objects(of: "Project").first { $0["id"] == .int(10) })
        try sync.link(project, "owner", to: grace)
        try sync.delete(try #require(try sync.objects(of: "Label").first))
        #expect(
            try fixture.lines() == [
                #"POST /people.json {"person":{"first_name":"Grace"}}"#,
                #"PUT /projects/10.json {"project":{"person_id":-1}}"#,
                "DELETE /labels/bug.json",
                "3 requests: 1 POST, 1 PUT, 1 DELETE",
            ])
        #expect(try sync.plan().requests[1].dependencies == [0])
        #expect(throws: SyncError.unknownAttribute(entity: "Project", attribute: "nope")) {
            try sync.update(project, ["nope": .null])
        }
    }
}

import Foundation
import RMap
import RMapSQLite
import Testing

/// What a schedule records from answers, without a server: identities from
/// `Location`, both forms of validation errors, dependants of failures, the push journal.
@Suite("Push acknowledgements")
struct AcknowledgementTests {
    @Test("an empty created answer takes its identity from Location and rewrites the child's foreign key")
    func locationIdentity() throws {
        let fixture = try SyncFixture()
        try fixture.sql("INSERT INTO people (id, first_name) VALUES (-1, 'Grace')")
        try fixture.sql("INSERT INTO projects (id, name, person_id) VALUES (-2, 'Cobol', -1)")
        let schedule = try fixture.sync.schedule()
        let (parentIndex, parent) = try #require(schedule.next())
        #expect(schedule.next() == nil)
        schedule.succeeded(parentIndex, request: parent, answer: nil, location: "http://127.0.0.1:1/people/26")
        let (childIndex, child) = try #require(schedule.next())
        #expect(child.line == #"POST /projects.json {"project":{"name":"Cobol","person_id":26}}"#)
        schedule.succeeded(
            childIndex, request: child, answer: .object(JSONObject([("id", .number("61"))])), location: nil)
        #expect(schedule.pending.isEmpty && schedule.acknowledged == 2)
        #expect(try fixture.sync.changes().isEmpty)
        let project = try #require(try fixture.sync.objects(of: "Project").first { $0["name"] == .string("Cobol") })
        #expect(project["id"] == .int(61) && project["personId"] == .int(26))
    }

    @Test(
        "422 errors as a hash or a list are shown per object; dependants stay pending unsent",
        arguments: [
            (
                #"{"first_name":["can't be blank","is too short"]}"#,
                "first_name can't be blank, first_name is too short"
            ),
            (#"{"errors":["First name can't be blank"]}"#, "First name can't be blank"),
            (#"{"errors":{"base":["is locked"]}}"#, "is locked"),
        ])
    func validationErrors(body: String, message: String) throws {
        let fixture = try SyncFixture()
        try fixture.sql("INSERT INTO people (id, first_name) VALUES (-1, '')")
        try fixture.sql("INSERT INTO projects (id, name, person_id) VALUES (-2, 'Cobol', -1)")
        let schedule = try fixture.sync.schedule()
        let (index, _) = try #require(schedule.next())
        schedule.failed(
            index, status: 422, answer: try JSONReader.parse(Data(body.utf8), origin: "test"), message: "HTTP 422")
        #expect(schedule.next() == nil)
        #expect(
            schedule.pending.map(\.description) == ["Person -1: \(message)", "Project -2: not sent: Person -1 failed"])
        #expect(try fixture.sync.changes().count == 2)
    }

    /// The push journal's rows: change, method, idempotency key, attempts.
    private func journal(_ fixture: SyncFixture) throws -> [[SQLiteValue]] {
        try SQLiteConnection(path: fixture.storePath)
            .query("SELECT change, method, idempotency_key, attempts FROM _rmap_push_journal ORDER BY change")
    }

    @Test("a request is journaled before it is handed out; the next schedule keeps a POST's key; the answer ends it")
    func journalKeepsKeys() throws {
        let fixture = try SyncFixture()
        try fixture.sql("INSERT INTO people (id, first_name) VALUES (-1, 'Grace')")
        try fixture.sql("UPDATE projects SET name = 'Engine 2' WHERE id = 10")
        let killed = try fixture.sync.schedule()
        let (_, post) = try #require(killed.next())
        let (_, put) = try #require(killed.next())
        let key = try #require(post.idempotencyKey)
        #expect(put.method == "PUT" && put.idempotencyKey == nil)
        #expect(
            try journal(fixture).map { [$0[0], $0[1], $0[2], $0[3]] } == [
                [.text("people -1"), .text("POST"), .text(key), .integer(1)],
                [.text("projects 10"), .text("PUT"), try journal(fixture)[1][2], .integer(1)],
            ])

        let resumed = try fixture.sync.schedule()
        let (index, again) = try #require(resumed.next())
        #expect(again.idempotencyKey == key)
        #expect(try journal(fixture).map(\.[3]) == [.integer(2), .integer(1)])
        resumed.succeeded(
            index, request: again, answer: .object(JSONObject([("id", .number("26"))])), location: nil, status: 201)
        #expect(try journal(fixture).map(\.[0]) == [.text("projects 10")])

        try fixture.sql("UPDATE projects SET name = 'Engine' WHERE id = 10")
        _ = try fixture.sync.schedule()
        #expect(try journal(fixture).isEmpty)
    }

    @Test(
        "a POST answered 409 or 425 (its key still in flight) keeps its journal entry and key; a 409 to a PUT does not",
        arguments: [409, 425])
    func keyInFlight(status: Int) throws {
        let fixture = try SyncFixture()
        try fixture.sql("INSERT INTO people (id, first_name) VALUES (-1, 'Grace')")
        try fixture.sql("UPDATE projects SET name = 'Engine 2' WHERE id = 10")
        let first = try fixture.sync.schedule()
        let (postIndex, post) = try #require(first.next())
        let (putIndex, put) = try #require(first.next())
        #expect(post.method == "POST" && put.method == "PUT")
        first.failed(postIndex, status: status, answer: nil, message: "HTTP \(status)")
        first.failed(putIndex, status: status, answer: nil, message: "HTTP \(status)")
        #expect(
            first.pending.map(\.description) == [
                "Person -1: the server is still processing an earlier attempt with its idempotency key "
                    + "(HTTP \(status)); push again to reconcile",
                "Project 10: HTTP \(status)",
            ])
        #expect(try journal(fixture).map(\.[0]) == [.text("people -1")])
        let (_, again) = try #require(try fixture.sync.schedule().next())
        #expect(again.method == "POST" && again.idempotencyKey == post.idempotencyKey)
    }
}

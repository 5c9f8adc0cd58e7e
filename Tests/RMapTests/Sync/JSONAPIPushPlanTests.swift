import Foundation
import RMapSQLite
import Testing

@testable import RMap
@testable import RMapHTTP

/// The requests a push sends for a JSON:API source, checked against jsonapi.org's own examples
/// ("Updating a Resource's Attributes", "... Relationships", "Creating Resources", "Deleting
/// Resources"), after the 1.1 compound document was loaded by a real run.
@Suite("JSON:API push plans")
struct JSONAPIPushPlanTests {

    /// The blog loaded from the 1.1 compound document, its SQLite file changed by `sql`, and its sync API.
    static func edited(_ sql: String) async throws -> (SyncStore, RunWorkspace) {
        let (workspace, _) = try await JSONAPIFixtureTests.run(
            JSONAPIFixtureTests.articles, pages: ["compound-document-1.1.json"])
        let database = try SQLiteConnection(path: workspace.path("rmap.sqlite"))
        if !sql.isEmpty { try database.execute(sql) }
        try workspace.write(
            "m.yml", JSONAPIFixtureTests.articles.replacingOccurrences(of: "NAMING", with: "snake_case"))
        let model = try MappingLoader(environment: [:], catalog: JSONAPIFixtureTests.catalog).load([
            workspace.path("m.yml")
        ])
        return (SyncStore(store: try SQLiteStore(path: workspace.path("rmap.sqlite")), model: model), workspace)
    }

    static func lines(_ sql: String) async throws -> [String] {
        let (sync, _) = try await edited(sql)
        return try sync.plan(suffix: { _ in "" }).requests.map(\.line)
    }

    @Test("changed attributes: one PATCH with only those attributes (jsonapi.org's article example)")
    func attributes() async throws {
        #expect(
            try await Self.lines(
                "UPDATE articles SET title = 'To TDD or Not', text = 'TLDR; It''s complicated... but check your test coverage regardless.'"
            ) == [
                #"PATCH /articles/1 {"data":{"type":"articles","id":"1","attributes":{"title":"To TDD or Not","text":"TLDR; It's complicated... but check your test coverage regardless."}}}"#
            ])
    }

    @Test("an attribute read from the resource's meta is the server's: never sent")
    func metaIsNotSent() async throws {
        #expect(
            try await Self.lines("UPDATE articles SET meta_rank_weekly = 5, title = 'Bikeshed'") == [
                #"PATCH /articles/1 {"data":{"type":"articles","id":"1","attributes":{"title":"Bikeshed"}}}"#
            ])
        #expect(try await Self.lines("UPDATE articles SET meta_rank_weekly = 4") == [])
    }

    @Test("a changed to-one sends its linkage; a to-many its full linkage; null and [] clear them")
    func relationships() async throws {
        #expect(
            try await Self.lines("UPDATE articles SET author_id = 1") == [
                #"PATCH /articles/1 {"data":{"type":"articles","id":"1","relationships":{"author":{"data":{"type":"people","id":"1"}}}}}"#
            ])
        #expect(
            try await Self.lines("UPDATE articles SET tag_ids = '[2,3]'") == [
                #"PATCH /articles/1 {"data":{"type":"articles","id":"1","relationships":{"tags":{"data":[{"type":"tags","id":"2"},{"type":"tags","id":"3"}]}}}}"#
            ])
        #expect(
            try await Self.lines("UPDATE articles SET author_id = NULL, comment_ids = '[]'") == [
                #"PATCH /articles/1 {"data":{"type":"articles","id":"1","relationships":{"author":{"data":null},"comments":{"data":[]}}}}"#
            ])
    }

    @Test("links edited in the join table go out as the to-many's full linkage")
    func joinTableEdits() async throws {
        #expect(
            try await Self.lines("DELETE FROM articles_comments WHERE comment_id = 5") == [
                #"PATCH /articles/1 {"data":{"type":"articles","id":"1","relationships":{"comments":{"data":[{"type":"comments","id":"12"}]}}}}"#
            ])
    }

    @Test("a new resource is POSTed with its attributes and linkage; a client's id goes with it; DELETE removes")
    func createAndDelete() async throws {
        let lines = try await Self.lines(
            """
            INSERT INTO photos (id, title, src, photographer_id)
              VALUES ('550e8400-e29b-41d4-a716-446655440000', 'Ember Hamster', 'http://example.com/images/productivity.png', 9);
            DELETE FROM comments WHERE id = 5
            """)
        #expect(
            lines == [
                #"POST /photos {"data":{"type":"photos","id":"550e8400-e29b-41d4-a716-446655440000","attributes":{"title":"Ember Hamster","src":"http://example.com/images/productivity.png"},"relationships":{"photographer":{"data":{"type":"people","id":"9"}}}}}"#,
                "DELETE /comments/5",
            ])
    }

    @Test("a 201's resource is laid over the row: the server's values are stored, nothing stays pending")
    func acknowledgedCreation() async throws {
        let (sync, workspace) = try await Self.edited(
            "INSERT INTO photos (id, title) VALUES ('550e8400-e29b-41d4-a716-446655440000', 'Hamster')")
        let request = try #require(try sync.plan().requests.first)
        let answer = try JSONReader.parse(
            Data(contentsOf: JSONAPIFixtureTests.fixtures.appendingPathComponent("photo-created.json")), origin: "201")
        try sync.acknowledge(request, answer: answer, location: nil)
        #expect(
            try workspace.rows("SELECT title, src FROM photos") == [
                [.text("Ember Hamster"), .text("http://example.com/images/productivity.png")]
            ])
        #expect(try sync.changes().isEmpty)
    }

    @Test(
        "a refused write's errors[] name the attribute their pointer points at (jsonapi.org's error examples)",
        arguments: [
            (
                "error-invalid-attribute.json", 422, ["firstName: First name must contain at least two characters."]
            ),
            // A server refusing a to-many's full replacement answers 403 (jsonapi.org, "Updating a Resource's Relationships").
            (
                "error-invalid-attribute.json", 403, ["firstName: First name must contain at least two characters."]
            ),
            (
                "errors-multiple.json", 400,
                [
                    "secretPowers: Editing secret powers is not authorized on Sundays.",
                    "volume: Volume does not, in fact, go to 11.",
                    "reputation: Reputation service not responding after three requests.",
                ]
            ),
        ])
    func errors(_ file: String, status: Int, messages: [String]) async throws {
        let (sync, _) = try await Self.edited("")
        let answer = try JSONReader.parse(
            Data(contentsOf: JSONAPIFixtureTests.fixtures.appendingPathComponent(file)), origin: file)
        #expect(sync.sync.messages(status: status, answer: answer, of: "BlogPerson") == messages)
        #expect(sync.sync.messages(status: 500, answer: answer, of: "BlogPerson") == [])
    }
}

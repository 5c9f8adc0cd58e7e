import Foundation
import RMap
import RMapHTTP
import RMapSQLite
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RailsServerSuites {
    /// `Session.fetch` against the Rails test app: one request per query, answers merged into the store.
    @Suite("Live session queries")
    struct SessionQueryTests {
        @Test("a query sends one GET with its condition, order, limit and offset, and stores the answer")
        func oneRequest() async throws {
            let live = try await LiveHarness()
            let people = try await live.session.fetch(
                "CRMPerson", where: ["lastName": "Lovelace"], sort: [.ascending("lastName")], limit: 10, offset: 0)
            #expect(
                try await live.log() == ["GET /people.json?last_name=Lovelace&limit=10&offset=0&order=last_name%20asc"])
            #expect(people.map(\.description) == ["CRMPerson 1"])
            let name: String? = try people[0]["firstName"]
            #expect(name == "Ada")
            let table = try live.table("CRMPerson")
            #expect(try live.value("SELECT first_name FROM \(table) WHERE id = 1") == .text("Ada"))
            #expect(try live.value("SELECT count(*) FROM \(table)") == .integer(1))
        }

        @Test("ten people by last name come in the server's order, admins as their sub-entity")
        func sortedWindow() async throws {
            let live = try await LiveHarness()
            let people = try await live.session.fetch("CRMPerson", sort: [.ascending("lastName")], limit: 10, offset: 5)
            #expect(try await live.log() == ["GET /people.json?limit=10&offset=5&order=last_name%20asc"])
            let server = try await live.records("people.json?order=last_name%20asc&limit=10&offset=5")
            #expect(
                people.map(\.identity)
                    == server.map { [ValueConverter.value(from: $0["id"] ?? .null, as: .int) ?? .null] })
            #expect(people.contains { $0.entity == "CRMAdmin" })
        }

        @Test("a local edit survives a later fetch of the same object (three-way merge against the base)")
        func localEditKept() async throws {
            let live = try await LiveHarness()
            let ada = try #require(try await live.session.fetch("CRMPerson", where: ["id": 1]).first)
            try await ada.set("email", to: "ada@lovelace.org")
            try await PushServer.serverSide(live.site, "PUT", "people/1.json", #"{"person":{"first_name":"Augusta"}}"#)
            let again = try #require(try await live.session.fetch("CRMPerson", where: ["id": 1]).first)
            let email: String? = try again["email"]
            let first: String? = try again["firstName"]
            #expect(email == "ada@lovelace.org")
            #expect(first == "Augusta")
        }

        @Test("a condition on a local-only attribute is applied to the answer, not sent")
        func localCondition() async throws {
            let live = try await LiveHarness()
            let session = Session(
                model: live.model, store: try SQLiteStore(path: ":memory:"), localOnly: ["CRMPerson": ["firstName"]])
            let adas = try await session.fetch("CRMPerson", where: ["firstName": "Ada", "admin": false])
            // 20 people are not admins: the first page's X-Total-Count says there are two pages, no third is asked.
            #expect(
                try await live.log().sorted() == [
                    "GET /people.json?admin=false&limit=10&offset=0", "GET /people.json?admin=false&limit=10&offset=10",
                ])
            #expect(adas.map(\.description) == ["CRMPerson 1", "CRMPerson 23"])
        }

        @Test("unknown names and wrong types are errors that name the entity")
        func typedErrors() async throws {
            let live = try await LiveHarness()
            let ada = try #require(try await live.session.fetch("CRMPerson", where: ["id": 1]).first)
            #expect(throws: LiveError.self) { let _: String? = try ada["fristName"] }
            #expect(throws: LiveError.self) { let _: Int? = try ada["firstName"] }
            await #expect(throws: LiveError.self) { try await live.session.fetch("CRMPerson", where: ["nope": 1]) }
            await #expect(throws: LiveError.self) { try await live.session.fetch("Nobody") }
        }

        @Test("fetches of the same query in flight at once send one request")
        func coalesced() async throws {
            let live = try await LiveHarness()
            let session = live.session
            async let first = session.fetch("CRMTask", where: ["projectId": 3])
            async let second = session.fetch("CRMTask", where: ["projectId": 3])
            let (a, b) = try await (first, second)
            #expect(a.map(\.identity) == b.map(\.identity))
            #expect(a.count == 3)
            #expect(try await live.log() == ["GET /tasks.json?project_id=3"])
        }
    }
}

extension LiveHarness {
    /// An index as the server answers it (outside the session; the log is emptied).
    func records(_ pathAndQuery: String) async throws -> [JSONObject] {
        let (data, _) = try await RepeatableRequest.data(
            from: try #require(URL(string: site.absoluteString + "/" + pathAndQuery)))
        try await clearLog()
        return (try JSONReader.parse(data, origin: pathAndQuery).array ?? []).compactMap(\.object)
    }
}

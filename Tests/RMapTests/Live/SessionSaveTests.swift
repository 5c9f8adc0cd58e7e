import Foundation
import RMap
import RMapHTTP
import Testing

extension RailsServerSuites {
    /// `Session.save()` against the Rails test app: the exactly-once push, then the server's values.
    @Suite("Live session save")
    struct SessionSaveTests {
        @Test("save sends only the changed attribute and takes the server's updated_at")
        func changedAttribute() async throws {
            let live = try await LiveHarness()
            let alan = try #require(try await live.session.fetch("CRMPerson", where: ["id": 2]).first)
            try await alan.set("email", to: "alan@bletchley.uk")
            try await live.clearLog()
            let report = try await live.session.save()
            #expect(report.push.isComplete && report.push.sent == 1)
            #expect(try await live.log() == [#"PUT /people/2.json {"person":{"email":"alan@bletchley.uk"}}"#])
            let server = try await live.record("people/2.json")
            let saved = try #require(try await live.session.object("CRMPerson", identity: [.int(2)]))
            #expect(
                saved.values["updatedAt"] == ValueConverter.value(from: server["updated_at"] ?? .null, as: .datetime))
            #expect(saved.values["updatedAt"] != .null)
            let email: String? = try saved["email"]
            #expect(email == "alan@bletchley.uk")
            #expect(try await live.session.save().push.sent == 0)
        }

        @Test("a write answered without a body is read again with a GET")
        func bodilessAnswers() async throws {
            let live = try await LiveHarness(pushTransport: BodilessWrites())
            let alan = try #require(try await live.session.fetch("CRMPerson", where: ["id": 2]).first)
            try await alan.set("email", to: "alan@bletchley.uk")
            _ = try await live.session.insert("CRMPerson", ["firstName": "Katherine"])
            try await live.clearLog()
            let report = try await live.session.save()
            #expect(report.push.isComplete)
            #expect(
                try await live.log().sorted() == [
                    "GET /people/2.json", "GET /people/26.json",
                    #"POST /people.json {"person":{"first_name":"Katherine"}}"#,
                    #"PUT /people/2.json {"person":{"email":"alan@bletchley.uk"}}"#,
                ])
            let server = try await live.record("people/2.json")
            let saved = try #require(try await live.session.object("CRMPerson", identity: [.int(2)]))
            #expect(
                saved.values["updatedAt"] == ValueConverter.value(from: server["updated_at"] ?? .null, as: .datetime))
            #expect(report.created.first?.values["updatedAt"] != .null)
        }

        @Test("an inserted object gets its permanent id, a deleted one is deleted on the server")
        func insertAndDelete() async throws {
            let live = try await LiveHarness()
            let task = try #require(try await live.session.fetch("CRMTask", where: ["projectId": 47]).last)
            let katherine = try await live.session.insert(
                "CRMPerson", ["firstName": "Katherine", "lastName": "Johnson"])
            #expect(katherine.identity == [.int(-1)])
            try await live.session.delete(task)
            try await live.clearLog()
            let report = try await live.session.save()
            #expect(report.push.isComplete)
            // Neither depends on the other: both are in flight at once, in either order.
            #expect(
                try await live.log().sorted() == [
                    "DELETE /tasks/150.json",
                    #"POST /people.json {"person":{"first_name":"Katherine","last_name":"Johnson"}}"#,
                ])
            #expect(report.created.map(\.description) == ["CRMPerson 26"])
            #expect(report.created.first?.values["updatedAt"] != .null)
        }
    }

    /// Answers of an API that sends writes back without a body (Rails always sends one): the Rails
    /// app's answers with the body of every write dropped.
    final class BodilessWrites: HTTPTransport {
        private let base = URLSessionTransport()

        func send(_ request: HTTPRequest, timeout: Duration) async throws(HTTPError.Reason) -> HTTPResponse {
            var response = try await base.send(request, timeout: timeout)
            if request.method != .get { response.body = Data() }
            return response
        }
    }

    /// The session's memory bound while many objects pass through it.
    @Suite("Live session memory")
    struct SessionMemoryTests {
        @Test("iterating 10,000 objects keeps at most cacheLimit in memory and loses no pending change")
        func boundedCache() async throws {
            let live = try await LiveHarness(cacheLimit: 200)
            try await live.addTasks(10_000)
            var seen = 0
            var largest = 0
            var page = 0
            while true {
                let tasks = try await live.session.fetch(
                    "CRMTask", sort: [.ascending("id")], limit: 1_000, offset: page * 1_000)
                if tasks.isEmpty { break }
                if page == 0 { try await tasks[0].set("title", to: "Edited before the iteration") }
                seen += tasks.count
                largest = max(largest, await live.session.cachedCount)
                page += 1
            }
            #expect(seen == 10_150)
            #expect(largest <= 200)
            #expect(largest > 0)
            try await live.clearLog()
            #expect(try await live.session.save().push.isComplete)
            #expect(try await live.log() == [#"PUT /tasks/1.json {"task":{"title":"Edited before the iteration"}}"#])
        }
    }
}

import Foundation
import RMap
import RMapHTTP
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RailsServerSuites {
    /// Exactly once from the user's side: the push journal, idempotency keys and store locks,
    /// against the real Rails app (its request log as the witness).
    @Suite("Push journal against Rails")
    struct PushJournalTests {
        /// A `POST /people.json` with an `Idempotency-Key`, as the raw answer.
        private func create(_ site: URL, key: String, name: String) async throws -> (HTTPURLResponse, String) {
            var request = URLRequest(url: site.appendingPathComponent("people.json"))
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.setValue(key, forHTTPHeaderField: "Idempotency-Key")
            request.httpBody = Data(#"{"person":{"first_name":"\#(name)"}}"#.utf8)
            let (data, response) = try await URLSession.shared.data(for: request)
            return (try #require(response as? HTTPURLResponse), String(decoding: data, as: UTF8.self))
        }

        @Test("the Rails app answers a repeated Idempotency-Key with the first answer, without creating again")
        func railsHonoursKeys() async throws {
            let harness = try await PushHarness()
            let (first, firstBody) = try await create(harness.site, key: "k-1", name: "Katherine")
            let (again, againBody) = try await create(harness.site, key: "k-1", name: "Katherine")
            #expect(first.statusCode == 201 && again.statusCode == 201)
            #expect(first.value(forHTTPHeaderField: "Location")?.hasSuffix("/people/26") == true)
            #expect(again.value(forHTTPHeaderField: "Location") == first.value(forHTTPHeaderField: "Location"))
            #expect(againBody == firstBody)
            #expect(try await harness.records("people").count == 26)
            let (other, _) = try await create(harness.site, key: "k-2", name: "Katherine")
            #expect(other.value(forHTTPHeaderField: "Location")?.hasSuffix("/people/27") == true)
            #expect(try await harness.log().filter { $0.method == "POST" }.map(\.replayed) == [false, true, false])
        }

        @Test(
            "an answer lost after the server created the object: the next push sends the same key, no duplicate",
            arguments: PushHarness.stores)
        func lostAnswer(kind: StoreKind?) async throws {
            let harness = try await PushHarness(kind: kind)
            let person = try harness.sync.insert("Person", ["firstName": .string("Katherine")])
            let project = try harness.sync.insert("Project", ["name": .string("Apollo")])
            try harness.sync.link(project, "owner", to: person)
            let first = try await harness.push(transport: FaultyTransport.losingAnswers(ofFirstPOSTs: 1))
            #expect(first.pending.map(\.object) == ["Person -1", "Project -1"])
            #expect(first.acknowledged == 0 && first.sent == 1)
            #expect(try await harness.push().isComplete)
            let log = try await harness.log()
            #expect(log.map(\.line).filter { $0.hasPrefix("POST /people") }.count == 2)
            #expect(log[0].idempotencyKey != nil && log[1].idempotencyKey == log[0].idempotencyKey)
            #expect(log.map(\.replayed) == [false, true, false])
            #expect(try await harness.records("people").count == 26)
            let apollo = try await harness.records("projects").filter { $0["name"]?.string == "Apollo" }
            #expect(apollo.count == 1 && apollo.first?["person_id"] == .number("26"))
            #expect(try harness.sync.changes().isEmpty)
        }

        @Test("a held SQLite lock fails the acknowledgement with a clear message; the next push does not duplicate")
        func heldLock() async throws {
            let harness = try await PushHarness(busyTimeout: .milliseconds(200))
            try harness.sql("INSERT INTO people (id, first_name) VALUES (-1, 'Katherine')")
            let locking = LockingTransport(path: harness.path)
            let first = try await harness.push(transport: locking)
            let failure = try #require(first.pending.first)
            #expect(first.pending.count == 1 && failure.status == 201)
            #expect(failure.description.contains("the server accepted it (HTTP 201)"))
            #expect(failure.description.contains("database is locked"))
            #expect(failure.description.contains("busy timeout"))
            #expect(failure.description.hasSuffix("push again to reconcile"))
            locking.release()
            #expect(try await harness.push().isComplete)
            let log = try await harness.log()
            #expect(log.map(\.status) == [201, 201] && log.map(\.replayed) == [false, true])
            #expect(log[1].idempotencyKey == log[0].idempotencyKey)
            #expect(try await harness.records("people").count == 26)
            #expect(try harness.value("SELECT id FROM people WHERE first_name = 'Katherine'") == .integer(26))
        }

        @Test("a refused POST (422) ends its journal entry: the fixed change goes with a new key")
        func refusalTakesNewKey() async throws {
            let harness = try await PushHarness()
            try harness.sql("INSERT INTO people (id, first_name) VALUES (-1, '')")
            #expect(try await harness.push().pending.first?.status == 422)
            try harness.sql("UPDATE people SET first_name = 'Katherine' WHERE id = -1")
            #expect(try await harness.push().isComplete)
            let log = try await harness.log()
            #expect(log.map(\.status) == [422, 201])
            #expect(log[0].idempotencyKey != nil && log[1].idempotencyKey != log[0].idempotencyKey)
        }
    }
}

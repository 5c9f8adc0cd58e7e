import Foundation
import RMap
import RMapHTTP
import RMapSQLite
import Testing

extension RailsServerSuites {
    /// `push` against the real Rails fixture app, its request log as the witness; serialized with
    /// every suite that uses the app, since each test resets it.
    @Suite("Push against Rails")
    struct PushRailsTests {
        @Test("a push with no edits sends no request")
        func noEdits() async throws {
            let harness = try await PushHarness()
            let report = try await harness.push()
            #expect(report == PushReport(sent: 0, acknowledged: 0, pending: []))
            #expect(try await harness.log().isEmpty)
        }

        @Test("one changed attribute sends one PUT with exactly that attribute and takes the server's updated_at")
        func oneAttribute() async throws {
            let harness = try await PushHarness()
            try harness.sql("UPDATE people SET email = 'new@x' WHERE id = 2")
            let report = try await harness.push()
            #expect(report.isComplete && report.sent == 1)
            #expect(try await harness.log().map(\.line) == [#"PUT /people/2.json {"person":{"email":"new@x"}}"#])
            #expect(try await harness.log().map(\.status) == [200])
            #expect(try harness.sync.changes().isEmpty)
            #expect(
                try harness.value("SELECT updated_at FROM people WHERE id = 2") != .text("2024-01-01T00:02:00.000Z"))
            #expect(try await harness.push().sent == 0)
        }

        @Test("a changed relationship sends only the foreign key")
        func foreignKey() async throws {
            let harness = try await PushHarness()
            try harness.sql("UPDATE projects SET person_id = 3 WHERE id = 1")
            #expect(try await harness.push().isComplete)
            #expect(try await harness.log().map(\.line) == [#"PUT /projects/1.json {"project":{"person_id":3}}"#])
        }

        @Test("a new person and a project pointing at its temporary id are POSTed in order with the real id")
        func newParentAndChild() async throws {
            let harness = try await PushHarness()
            try harness.sql("INSERT INTO people (id, first_name, last_name) VALUES (-1, 'Katherine', 'Johnson')")
            try harness.sql("INSERT INTO projects (id, name, person_id) VALUES (-7, 'Apollo', -1)")
            let report = try await harness.push(jobs: 4)
            #expect(report.isComplete && report.sent == 2)
            #expect(
                try await harness.log().map(\.line) == [
                    #"POST /people.json {"person":{"first_name":"Katherine","last_name":"Johnson"}}"#,
                    #"POST /projects.json {"project":{"name":"Apollo","person_id":26}}"#,
                ])
            #expect(try harness.value("SELECT person_id FROM projects WHERE name = 'Apollo'") == .integer(26))
            #expect(try harness.value("SELECT id FROM projects WHERE name = 'Apollo'") == .integer(61))
            #expect(try harness.value("SELECT count(*) FROM people WHERE id < 0") == .integer(0))
            #expect(try harness.sync.changes().isEmpty)
        }

        @Test("a deleted task sends one DELETE and drops its base")
        func deletion() async throws {
            let harness = try await PushHarness()
            try harness.sql("DELETE FROM tasks WHERE id = 150")
            #expect(try await harness.push().isComplete)
            let log = try await harness.log()
            #expect(log.map(\.line) == ["DELETE /tasks/150.json"])
            #expect(log.map(\.status) == [204])
            #expect(try harness.sync.changes().isEmpty)
        }

        @Test("a 422 shows the server's errors and keeps the change pending until it is fixed")
        func validationFailure() async throws {
            let harness = try await PushHarness()
            try harness.sql("UPDATE projects SET name = '' WHERE id = 2")
            let failed = try await harness.push()
            #expect(failed.pending.map(\.description) == ["Project 2: name can't be blank"])
            #expect(failed.pending.first?.status == 422)
            #expect(try harness.sync.changes().map(\.label) == ["Project 2"])
            try harness.sql("UPDATE projects SET name = 'Renamed' WHERE id = 2")
            #expect(try await harness.push().isComplete)
            #expect(
                try await harness.log().map(\.line) == [
                    #"PUT /projects/2.json {"project":{"name":""}}"#,
                    #"PUT /projects/2.json {"project":{"name":"Renamed"}}"#,
                ])
            #expect(try await harness.log().map(\.status) == [422, 200])
        }

        @Test("rmap push exits 1 with a line per pending object, then 0 once fixed")
        func command() async throws {
            let harness = try await PushHarness()
            let directory = try TemporaryDirectory()
            try directory.write("crm.yml", PushHarness.mapping(site: harness.site))
            try harness.sql("UPDATE projects SET name = '' WHERE id = 5")
            try harness.sql("UPDATE people SET last_name = 'Byron' WHERE id = 1")
            let arguments = ["push", "crm.yml", "--store", "sqlite:\(harness.path)", "--jobs", "1"]
            let failed = try await CLIRunner.run(arguments, in: directory.url)
            #expect(failed.status == 1)
            #expect(failed.stderr == "push: 2 sent, 1 acknowledged, 1 pending\nProject 5: name can't be blank\n")
            try harness.sql("UPDATE projects SET name = 'Five' WHERE id = 5")
            let fixed = try await CLIRunner.run(arguments, in: directory.url)
            #expect(fixed.status == 0, "\(fixed.stderr)")
            #expect(
                try await CLIRunner.run(arguments, in: directory.url).stderr
                    == "push: 0 sent, 0 acknowledged, 0 pending\n")
            #expect(try await harness.log().map(\.status) == [200, 422, 200])
        }

        @Test("a push interrupted after the second request, pushed again, sends each change once")
        func interrupted() async throws {
            let harness = try await PushHarness()
            for id in 1...5 { try harness.sql("UPDATE tasks SET title = 'Edited \(id)' WHERE id = \(id)") }
            let first = try await harness.push(jobs: 1, transport: FaultyTransport.cancelling(after: 2))
            #expect(first.acknowledged == 2)
            #expect(first.pending.count == 3)
            #expect(try harness.sync.changes().count == 3)
            let second = try await harness.push()
            #expect(second.isComplete && second.sent == 3)
            let paths = try await harness.log().map(\.path)
            #expect(paths.sorted() == (1...5).map { "/tasks/\($0).json" })
        }

        @Test("push: {method: patch} sends PATCH")
        func patch() async throws {
            let harness = try await PushHarness(project: "push: { method: patch }")
            try harness.sql("UPDATE projects SET budget = '99.5', archived = 1 WHERE id = 3")
            #expect(try await harness.push().isComplete)
            #expect(
                try await harness.log().map(\.line) == [
                    #"PATCH /projects/3.json {"project":{"budget":"99.5","archived":true}}"#
                ])
        }

        @Test("a decimal the server sends back as 12.5 for 12.50 is no change")
        func decimalsCompareByValue() async throws {
            let harness = try await PushHarness()
            try harness.sql("UPDATE projects SET budget = '12.50' WHERE id = 4")
            #expect(try await harness.push().isComplete)
            #expect(try harness.sync.changes().isEmpty)
            try await harness.fetch()
            #expect(try harness.sync.changes().isEmpty)
        }

        @Test(
            "a re-fetch merges three-way: remote-only applies, local-only stays pending, both-changed per on_conflict",
            arguments: ["fail", "local", "remote"])
        func threeWayMerge(policy: String) async throws {
            let harness = try await PushHarness(person: "on_conflict: \(policy)")
            try harness.sql("UPDATE people SET email = 'local-only@x' WHERE id = 2")
            try harness.sql("UPDATE people SET email = 'local@x' WHERE id = 4")
            try await PushServer.serverSide(harness.site, "PUT", "people/3.json", #"{"person":{"last_name":"Remote"}}"#)
            try await PushServer.serverSide(harness.site, "PUT", "people/4.json", #"{"person":{"email":"remote@x"}}"#)
            if policy == "fail" {
                await #expect(throws: ConflictError.self) { try await harness.fetch() }
                #expect(try harness.value("SELECT last_name FROM people WHERE id = 3") == .text("Hopper"))
                return
            }
            try await harness.fetch()
            #expect(try harness.value("SELECT last_name FROM people WHERE id = 3") == .text("Remote"))
            #expect(try harness.value("SELECT email FROM people WHERE id = 2") == .text("local-only@x"))
            let expected = policy == "local" ? "local@x" : "remote@x"
            #expect(try harness.value("SELECT email FROM people WHERE id = 4") == .text(expected))
            let pending = try harness.sync.changes().map(\.label)
            #expect(pending == (policy == "local" ? ["Person 2", "Person 4"] : ["Person 2"]))
            _ = try await harness.push()
            #expect(
                try await harness.log().map(\.path).sorted()
                    == pending.map { "/people/\($0.split(separator: " ")[1]).json" })
        }

        @Test("library API: insert, link, update and delete, then push")
        func libraryAPI() async throws {
            let harness = try await PushHarness()
            let sync = harness.sync
            let person = try sync.insert("Person", ["firstName": .string("Mary"), "lastName": .string("Jackson")])
            #expect(person.isNew && person.identity == [.int(-1)])
            let project = try sync.insert("Project", ["name": .string("Wind tunnel")])
            try sync.link(project, "owner", to: person)
            let ada = try #require(try sync.objects(of: "Person").first { $0["id"] == .int(1) })
            try sync.update(ada, ["lastName": .string("King")])
            let task = try #require(try sync.objects(of: "Task").first { $0["id"] == .int(7) })
            try sync.delete(task)
            #expect(try await harness.push(jobs: 1).isComplete)
            #expect(
                try await harness.log().map(\.line) == [
                    #"POST /people.json {"person":{"first_name":"Mary","last_name":"Jackson"}}"#,
                    #"POST /projects.json {"project":{"name":"Wind tunnel","person_id":26}}"#,
                    #"PUT /people/1.json {"person":{"last_name":"King"}}"#,
                    "DELETE /tasks/7.json",
                ])
            #expect(
                try sync.objects(of: "Project").first { $0["name"] == .string("Wind tunnel") }?["personId"] == .int(26))
        }
    }
}

import Foundation
import RMap
import RMapHTTP
import RMapSQLite
import Testing

extension DjangoServerSuites {
    /// `rmap push` of `examples/jsonapi/crm.yml` to the Django app's JSON:API endpoints
    /// (djangorestframework-jsonapi), its request log as the witness.
    @Suite("JSON:API push against Django")
    struct JSONAPIDjangoPushTests {
        /// The CRM loaded by the binary (with the example changed by `variant`), then `sql` run on
        /// the store and the log emptied.
        static func loaded(_ sql: String, variant: ((String) -> String)? = nil) async throws -> JSONAPIRun {
            let site = try TestServers.django().url
            try await PushServer.reset(site)
            var run = try JSONAPIRun(site: site)
            if let variant { try run.write(variant: variant) }
            let loaded = try await run.rmap(["run", run.mapping, "--store", run.store, "--quiet"])
            #expect(loaded.status == 0, "\(loaded.stderr)")
            try run.sql(sql)
            try await PushServer.clearLog(site)
            return run
        }

        /// The logged requests but the `GET`s.
        static func writes(_ site: URL) async throws -> [PushServer.Logged] {
            try await PushServer.log(site).filter { $0.method != "GET" }
        }

        @Test("one edited attribute pushes one PATCH with exactly that attribute; a second push sends nothing")
        func oneAttribute() async throws {
            let run = try await Self.loaded("UPDATE people SET email = 'ada@lovelace.org' WHERE id = 1")
            let diff = try await run.rmap(["diff", run.mapping, "--store", run.store])
            #expect(
                diff.stdout == """
                    PATCH /people/1/ {"data":{"type":"people","id":"1","attributes":{"email":"ada@lovelace.org"}}}
                    1 request: 0 POST, 0 PUT, 1 PATCH, 0 DELETE

                    """)
            let push = try await run.rmap(["push", run.mapping, "--store", run.store])
            #expect(push.status == 0, "\(push.stderr)")
            #expect(
                try await Self.writes(run.site).map(\.line) == [
                    #"PATCH /jsonapi/people/1/ {"data":{"type":"people","id":"1","attributes":{"email":"ada@lovelace.org"}}}"#
                ])
            #expect(try await JSONAPIRun.headers(run.site, "content-type") == ["application/vnd.api+json"])
            #expect(try await PushServer.log(run.site).map(\.status) == [200])

            try await PushServer.clearLog(run.site)
            let again = try await run.rmap(["push", run.mapping, "--store", run.store])
            #expect(again.status == 0)
            #expect(try await PushServer.log(run.site).isEmpty)
            // The server's answer (its new updated-at) is the new base: a re-run finds nothing to merge.
            let rerun = try await run.rmap(["run", run.mapping, "--store", run.store, "--quiet", "--json"])
            #expect(try DjangoExampleTests.totals(rerun)["unchanged"] == 235)
        }

        @Test("a changed to-one pushes its linkage")
        func toOne() async throws {
            let run = try await Self.loaded("UPDATE projects SET person_id = 3 WHERE id = 1")
            #expect(try await run.rmap(["push", run.mapping, "--store", run.store]).status == 0)
            #expect(
                try await Self.writes(run.site).map(\.line) == [
                    #"PATCH /jsonapi/projects/1/ {"data":{"type":"projects","id":"1","relationships":{"person":{"data":{"type":"people","id":"3"}}}}}"#
                ])
            let project = try await Plain.json(run.site.appendingPathComponent("jsonapi/projects/1/"))
            #expect(
                project.object?["data"]?.object?["relationships"]?.object?["person"]?.object?["data"]
                    == .object(JSONObject([("type", .string("people")), ("id", .string("3"))])))
        }

        /// The example with a project's tasks connected by the project's `tasks` linkage (kept in a
        /// join table) rather than by each task's `project`.
        static func tasksByLinkage(_ example: String) -> String {
            example
                .replacingOccurrences(
                    of: "tasks: { to_many: CRMTask, inverse: project }", with: "tasks: { to_many: CRMTask }"
                )
                .replacingOccurrences(
                    of:
                        "    relationships:\n      project: { to_one: CRMProject }        # linkage: stored in project_id\n",
                    with: "")
        }

        @Test("a to-many's change pushes its full linkage: a task moved to another project, both projects PATCHed")
        func toMany() async throws {
            let run = try await Self.loaded(
                "DELETE FROM projects_tasks WHERE task_id = 13; INSERT INTO projects_tasks VALUES (1, 13)",
                variant: Self.tasksByLinkage)
            #expect(try run.rows("SELECT count(*) FROM projects_tasks") == [[.integer(150)]])
            let push = try await run.rmap(["push", run.mapping, "--store", run.store])
            #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
            func linkage(_ ids: ClosedRange<Int>) -> String {
                ids.map { #"{"type":"tasks","id":"\#($0)"}"# }.joined(separator: ",")
            }
            let writes = try await Self.writes(run.site)
            #expect(
                writes.map(\.line).sorted() == [
                    #"PATCH /jsonapi/projects/1/ {"data":{"type":"projects","id":"1","relationships":{"tasks":{"data":["#
                        + linkage(1...13) + "]}}}}",
                    #"PATCH /jsonapi/projects/2/ {"data":{"type":"projects","id":"2","relationships":{"tasks":{"data":["#
                        + linkage(14...15) + "]}}}}",
                ])
            #expect(writes.map(\.status) == [200, 200])
            let task = try await Plain.json(run.site.appendingPathComponent("jsonapi/tasks/13/"))
            #expect(
                task.object?["data"]?.object?["relationships"]?.object?["project"]?.object?["data"]
                    == .object(JSONObject([("type", .string("projects")), ("id", .string("1"))])))

            try await PushServer.clearLog(run.site)
            #expect(try await run.rmap(["push", run.mapping, "--store", run.store]).status == 0)
            #expect(try await PushServer.log(run.site).isEmpty)
            let rerun = try await run.rmap(["run", run.mapping, "--store", run.store, "--quiet", "--json"])
            #expect(try DjangoExampleTests.totals(rerun)["unchanged"] == 235)
            #expect(try run.rows("SELECT project_id FROM projects_tasks WHERE task_id = 13") == [[.integer(1)]])
        }

        @Test("a new person with a new project: the person is POSTed, then the project with the person's server id")
        func newPersonAndProject() async throws {
            let run = try await Self.loaded(
                """
                INSERT INTO people (id, first_name, last_name, type) VALUES (-1, 'Katherine', 'Johnson', 'Person');
                INSERT INTO projects (id, name, person_id) VALUES (-7, 'Apollo', -1)
                """)
            let push = try await run.rmap(["push", run.mapping, "--store", run.store])
            #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
            let writes = try await Self.writes(run.site)
            #expect(
                writes.map(\.line) == [
                    #"POST /jsonapi/people/ {"data":{"type":"people","attributes":{"first_name":"Katherine","last_name":"Johnson"}}}"#,
                    #"POST /jsonapi/projects/ {"data":{"type":"projects","attributes":{"name":"Apollo"},"relationships":{"person":{"data":{"type":"people","id":"26"}}}}}"#,
                ])
            #expect(writes.map(\.status) == [201, 201])
            #expect(
                try run.rows("SELECT id, person_id FROM projects WHERE name = 'Apollo'") == [
                    [.integer(61), .integer(26)]
                ])
            #expect(try run.rows("SELECT count(*) FROM people WHERE id < 0") == [[.integer(0)]])
            let diff = try await run.rmap(["diff", run.mapping, "--store", run.store])
            #expect(diff.stdout == "0 requests: 0 POST, 0 PUT, 0 DELETE\n")
        }

        @Test("a refused write (400, errors[]) names the attribute and stays pending until it is fixed")
        func refused() async throws {
            let run = try await Self.loaded(
                """
                UPDATE projects SET name = '' WHERE id = 2; DELETE FROM tasks WHERE id = 150;
                INSERT INTO people (id, last_name, type) VALUES (-1, 'Nameless', 'Person')
                """)
            let push = try await run.rmap(["push", run.mapping, "--store", run.store])
            #expect(push.status == 1)
            #expect(push.stderr.contains("CRMProject 2: name: This field may not be blank.\n"), "\(push.stderr)")
            #expect(push.stderr.contains("CRMPerson -1: firstName: This field is required.\n"), "\(push.stderr)")
            let writes = try await Self.writes(run.site)
            #expect(writes.map(\.status).sorted() == [204, 400, 400], "\(writes.map(\.line))")
            let diff = try await run.rmap(["diff", run.mapping, "--store", run.store])
            #expect(
                diff.stdout.contains(
                    #"PATCH /projects/2/ {"data":{"type":"projects","id":"2","attributes":{"name":""}}}"#))
            try run.sql(
                "UPDATE projects SET name = 'Renamed' WHERE id = 2; UPDATE people SET first_name = 'Named' WHERE id = -1"
            )
            #expect(try await run.rmap(["push", run.mapping, "--store", run.store]).status == 0)
            #expect(try await run.rmap(["diff", run.mapping, "--store", run.store]).stdout.hasPrefix("0 requests"))
        }

        @Test("an answer lost after the server created the person: the next push sends the same key, no duplicate")
        func lostAnswer() async throws {
            let run = try await Self.loaded("INSERT INTO people (id, first_name) VALUES (-1, 'Katherine')")
            let registry = PluginRegistry.standard()
            registry.registerHTTP()
            registry.registerSQLite()
            let model = try MappingLoader(
                environment: ["DJANGO_URL": run.site.absoluteString], catalog: registry.catalog
            )
            .load([run.mapping])
            let sync = SyncStore(store: try SQLiteStore(path: run.store), model: model)
            let first = try await Pusher(model: model, transport: FaultyTransport.losingAnswers(ofFirstPOSTs: 1)) {
                policy in
                policy.retries = 0
            }.push(sync)
            #expect(first.acknowledged == 0 && first.pending.map(\.object) == ["CRMPerson -1"])
            #expect(try await Pusher(model: model).push(sync).isComplete)
            let posts = try await Self.writes(run.site)
            let keys = try await JSONAPIRun.headers(run.site, "idempotency-key")
            #expect(posts.map(\.status) == [201, 201] && keys.count == 2 && !keys[0].isEmpty && keys[0] == keys[1])
            let people = try await Plain.json(run.site.appendingPathComponent("jsonapi/people/"))
            #expect(people.object?["meta"]?.object?["pagination"]?.object?["count"] == .number("26"))
            #expect(try run.rows("SELECT id FROM people WHERE first_name = 'Katherine'") == [[.integer(26)]])
        }
    }
}

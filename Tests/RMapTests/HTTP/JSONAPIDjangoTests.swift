import Foundation
import RMap
import RMapSQLite
import Testing

@testable import RMapHTTP

extension DjangoServerSuites {
    /// The JSON:API endpoints of the Django test app (djangorestframework-jsonapi) read by the http
    /// source: `examples/jsonapi/crm.yml` by the binary, and compound documents in process.
    @Suite("JSON:API against Django")
    struct JSONAPIDjangoTests {
        @Test(
            "the example loads the whole CRM: included tasks, every link connected, one request a page; a re-run changes nothing"
        )
        func example() async throws {
            let site = try TestServers.django().url
            try await PushServer.reset(site)
            let run = try JSONAPIRun(site: site)
            let first = try await run.rmap(["run", run.mapping, "--store", run.store, "--quiet", "--json"])
            #expect(first.status == 0, "\(first.stderr)")
            let totals = try DjangoExampleTests.totals(first)
            #expect(totals["inserted"] == 235 && totals["fetched"] == 235, "\(totals)")
            #expect(totals["dangling"] == 0 && totals["rejected"] == 0 && totals["unmapped_keys"] == 0, "\(totals)")
            #expect(try run.rows("SELECT count(*) FROM people WHERE type = 'Admin'") == [[.integer(5)]])
            #expect(
                try run.rows("SELECT count(*) FROM projects JOIN people ON people.id = projects.person_id") == [
                    [.integer(59)]
                ])
            #expect(
                try run.rows("SELECT count(*) FROM tasks JOIN projects ON projects.id = tasks.project_id") == [
                    [.integer(150)]
                ])
            #expect(
                try run.rows(
                    "SELECT first_name, budget, due_at FROM people, projects, tasks WHERE people.id = 1 AND projects.id = 1 AND tasks.id = 1"
                )
                    == [[.text("Ada"), .text("1250.25"), .text("2024-03-01T10:00:00.037Z")]])

            let log = try await PushServer.log(site)
            #expect(log.allSatisfy { $0.method == "GET" && $0.status == 200 })
            // 25 people and 60 projects, ten a page: 3 + 6 requests, the 150 tasks included with their projects.
            #expect(log.filter { $0.path.hasPrefix("/jsonapi/people/") }.count == 3)
            #expect(log.filter { $0.path.hasPrefix("/jsonapi/projects/") }.count == 6)
            #expect(log.count == 9)
            #expect(
                log.filter { $0.path.hasPrefix("/jsonapi/projects/") }.allSatisfy { $0.path.contains("include=tasks") })
            #expect(!log.contains { $0.path.hasPrefix("/jsonapi/people/") && $0.path.contains("include=") })
            #expect(try await JSONAPIRun.accepts(site).allSatisfy { $0 == "application/vnd.api+json" })

            let second = try await run.rmap(["run", run.mapping, "--store", run.store, "--quiet", "--json"])
            #expect(second.status == 0, "\(second.stderr)")
            let again = try DjangoExampleTests.totals(second)
            #expect(again["unchanged"] == 235 && again["inserted"] == 0 && again["updated"] == 0, "\(again)")
        }

        @Test("people with their projects and tasks included: one request a page, each resource to its entity")
        func compoundPages() async throws {
            let site = try TestServers.django().url
            try await PushServer.reset(site)
            let harness = try FetchHarness(
                """
                rmap: 1
                source: {plugin: http, site: "${DJANGO_URL}/jsonapi", format: jsonapi, suffix: /, page_size: 10}
                naming: {entity_prefix: CRM}
                entities:
                  CRMPerson:
                    attributes: {id: int, firstName: string}
                    relationships: {projects: {to_many: CRMProject, inverse: person}}
                  CRMProject:
                    source: false
                    attributes: {id: int, name: string}
                    relationships:
                      person: {to_one: CRMPerson}
                      tasks: {to_many: CRMTask, inverse: project}
                  CRMTask:
                    source: false
                    attributes: {id: int, title: string}
                    relationships: {project: {to_one: CRMProject}}
                """, environment: ["DJANGO_URL": site.absoluteString])
            let payloads = try await harness.fetch(["CRMPerson"])
            var counts: [String: Int] = [:]
            for payload in payloads { counts[payload.entity, default: 0] += FetchHarness.records(of: payload).count }
            // Project 60 has no person, so no person's page includes it.
            #expect(counts == ["CRMPerson": 25, "CRMProject": 59, "CRMTask": 150])
            #expect(Set(payloads.map(\.origin)).count == 3)
            let paths = try await Plain.requestedPaths(site, containing: "/jsonapi/")
            #expect(paths.count == 3)
            #expect(paths.first?.contains("include=projects,projects.tasks") == true)
            let task = try #require(
                payloads.first { $0.entity == "CRMTask" }.flatMap { FetchHarness.records(of: $0).first })
            #expect(task.object?["project"] == .object(JSONObject([("id", .string("1"))])))
            #expect(task.object?["title"] == .string("Task 001"))
        }

        @Test(
            "init --format jsonapi on a page of projects with their people and tasks included proposes the three entities"
        )
        func initFromThePage() async throws {
            let site = try TestServers.django().url
            let run = try JSONAPIRun(site: site)
            let url = site.absoluteString + "/jsonapi/projects/?include=person,tasks"
            let result = try await run.rmap([
                "init", "--format", "jsonapi", "--prefix", "CRM", "--url", url, "-o", "crm.yml",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.hasPrefix("inferred: CRMProject: 'projects' resources from \(url)\n"))
            let text = try String(contentsOf: run.directory.url.appendingPathComponent("crm.yml"), encoding: .utf8)
            #expect(
                text.contains(
                    "source: { plugin: http, site: \"\(site.absoluteString)\", format: jsonapi, suffix: / }\n    path: jsonapi/projects\n"
                ))
            #expect(
                text.contains(
                    "      person: { to_one: CRMPerson }\n      tasks: { to_many: CRMTask, inverse: project }\n"))
            #expect(text.contains("      projects: { to_many: CRMProject, inverse: person }\n"))
            #expect(try await JSONAPIRun.accepts(site).last == "application/vnd.api+json")
            let validate = try await run.rmap(["validate", "crm.yml"])
            #expect(validate.stdout == "ok: 3 entities in 1 file\n", "\(validate.stderr)")
        }
    }
}

/// A workspace for runs of `examples/jsonapi/crm.yml` against the Django app.
struct JSONAPIRun {
    let directory: TemporaryDirectory
    let site: URL
    /// The mapping's path: the example's, or a variant written by ``write(variant:)``.
    private(set) var mapping = TestServers.repositoryRoot.appendingPathComponent("examples/jsonapi/crm.yml").path

    init(site: URL) throws {
        directory = try TemporaryDirectory()
        self.site = site
    }

    /// Writes the example changed by `change` beside the store and uses it from then on.
    mutating func write(variant change: (String) -> String) throws {
        let text = try String(contentsOfFile: mapping, encoding: .utf8)
        let url = directory.url.appendingPathComponent("crm.yml")
        try change(text).write(to: url, atomically: true, encoding: .utf8)
        mapping = url.path
    }

    /// The store's path.
    var store: String { directory.url.appendingPathComponent("crm.sqlite").path }

    /// Runs the binary with `DJANGO_URL` set.
    func rmap(_ arguments: [String]) async throws -> CLIResult {
        try await CLIRunner.run(arguments, in: directory.url, environment: ["DJANGO_URL": site.absoluteString])
    }

    /// Changes the store as a user would.
    func sql(_ statements: String) throws {
        try SQLiteConnection(path: store).execute(statements)
    }

    /// The rows of a query on the store.
    func rows(_ query: String) throws -> [[SQLiteValue]] {
        try SQLiteConnection(path: store).query(query, [])
    }

    /// The `Accept` header of every logged request.
    static func accepts(_ site: URL) async throws -> [String] {
        try await headers(site, "accept")
    }

    /// One header of every logged request (`""` where it was absent), oldest first.
    static func headers(_ site: URL, _ name: String) async throws -> [String] {
        let log = try await Plain.json(site.appendingPathComponent("_requests"))
        return (log.array ?? []).map { $0.object?["headers"]?.object?[name]?.string ?? "" }
    }
}

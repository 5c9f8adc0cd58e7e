import Foundation
import RMap
import Testing

@testable import RMapHTTP

extension RailsServerSuites {
    /// The http source against the Rails fixture app (see Tests/Fixtures/rails-app/README.md).
    @Suite("HTTP source against Rails")
    struct HTTPSourceRailsTests {
        /// Each test starts from the seed: the push suites change the shared app's data.
        init() async throws {
            try await PushServer.reset(try TestServers.rails())
        }

        /// A mapping of the app's three models; `source` is the file's `source:` block body.
        static func mapping(site: URL, source: String = "", project: String = "", sort: String = "") -> String {
            """
            rmap: 1
            source:
              plugin: http
              site: \(site.absoluteString)
            \(source.split(separator: "\n").map { "  \($0)" }.joined(separator: "\n"))
            entities:
              Person:
                \(sort)
                attributes:
                  id: int
                  firstName: string
                  lastName: string
                  email: string
                  bornOn: date
                  admin: bool
              Project:
                \(project.split(separator: "\n").joined(separator: "\n    "))
                attributes:
                  id: int
                  name: string
                  budget: decimal
                  personId: int
                relationships:
                  owner:
                    to_one: Person
                    connect:
                      foreign_key: { personId: id }
              Task:
                attributes:
                  id: int
                  title: string
                  projectId: int
                relationships:
                  project:
                    to_one: Project
                    connect:
                      foreign_key: { projectId: id }
            """
        }

        @Test("every person, project and task arrives with the server's values")
        func everyRecord() async throws {
            let site = try TestServers.rails()
            let harness = try FetchHarness(Self.mapping(site: site))
            try await harness.fetch(["Person", "Project", "Task"])
            for (entity, collection, count) in [
                ("Person", "people", 25), ("Project", "projects", 60), ("Task", "tasks", 150),
            ] {
                let expected = try await Plain.json(site.appendingPathComponent("\(collection).json"))
                #expect(harness.records(entity) == expected.array, "\(entity)")
                #expect(harness.records(entity).count == count)
            }
            #expect(
                Set(harness.fetchedOrigins)
                    == Set(["people", "projects", "tasks"].map { "\(site.absoluteString)/\($0).json" }))
            #expect(harness.fetchedOrigins.count == 3)
            #expect(harness.payloads.allSatisfy { $0.fill.isEmpty })
        }

        @Test(
            "offset paging: limit/offset, the pages after the first as many as X-Total-Count needs, else until a short or empty page",
            arguments: [(7, ["0", "7", "14", "21"]), (5, ["0", "5", "10", "15", "20"]), (25, ["0", "25"])])
        func offsetPaging(pageSize: Int, offsets: [String]) async throws {
            let site = try TestServers.rails()
            let tag = marker()
            let harness = try FetchHarness(
                Self.mapping(site: site, source: "page_size: \(pageSize)\nparams: { tag: \(tag) }"))
            try await harness.fetch(["Person"])
            let expected = try await Plain.json(site.appendingPathComponent("people.json"))
            // The pages after the first arrive in any order.
            #expect(byID(harness.records("Person")) == expected.array)
            let paths = try await Plain.requestedPaths(site, containing: tag)
            #expect(paths.first == "/people.json?tag=\(tag)&limit=\(pageSize)&offset=0")
            #expect(Set(paths) == Set(offsets.map { "/people.json?tag=\(tag)&limit=\(pageSize)&offset=\($0)" }))
            #expect(paths.count == offsets.count)
        }

        @Test("page paging: page=1,2,… with per_page, as many pages as X-Total-Count needs")
        func pagePaging() async throws {
            let site = try TestServers.rails()
            let tag = marker()
            let harness = try FetchHarness(
                Self.mapping(site: site, source: "page_size: 10\npaginate: page\nparams: { tag: \(tag) }"))
            try await harness.fetch(["Person", "Project"])
            #expect(
                byID(harness.records("Person"))
                    == (try await Plain.json(site.appendingPathComponent("people.json"))).array)
            #expect(
                byID(harness.records("Project"))
                    == (try await Plain.json(site.appendingPathComponent("projects.json"))).array)
            let paths = try await Plain.requestedPaths(site, containing: tag)
            // 25 people: 10, 10, 5; 60 projects: six full pages, and no empty seventh (the total says 60).
            #expect(
                Set(paths.filter { $0.hasPrefix("/people") })
                    == Set((1...3).map { "/people.json?tag=\(tag)&per_page=10&page=\($0)" }))
            #expect(
                Set(paths.filter { $0.hasPrefix("/projects") })
                    == Set((1...6).map { "/projects.json?tag=\(tag)&per_page=10&page=\($0)" }))
            #expect(paths.count == 9)
        }

        @Test("sort becomes order with the attributes' JSON keys")
        func order() async throws {
            let site = try TestServers.rails()
            let tag = marker()
            let harness = try FetchHarness(
                Self.mapping(site: site, source: "params: { tag: \(tag) }", sort: "sort: [firstName asc, email desc]"))
            try await harness.fetch(["Person"])
            let ids = harness.records("Person").prefix(5).compactMap { $0.object?["id"] }
            #expect(ids == ["23", "1", "15", "2", "11"].map(JSONValue.number))
            let paths = try await Plain.requestedPaths(site, containing: tag)
            #expect(paths == ["/people.json?tag=\(tag)&order=first_name%20asc,email%20desc"])
        }

        @Test("nested_path: each parent's children, each parent paged on its own, the parent key filled")
        func nestedPath() async throws {
            let site = try TestServers.rails()
            let tag = marker()
            let harness = try FetchHarness(
                Self.mapping(
                    site: site, source: "page_size: 10\npaginate: page\nparams: { tag: \(tag) }",
                    project: "nested_path: people/{personId}/projects"))
            try await harness.fetch(["Person", "Project"])

            let paths = try await Plain.requestedPaths(site, containing: tag).filter { $0.contains("/projects") }
            // Person 1 has 12 projects: two pages; everyone else fits in one (person 25's is empty).
            #expect(paths.count == 26)
            #expect(paths.filter { $0.hasPrefix("/people/1/") }.count == 2)
            #expect(paths.contains("/people/1/projects.json?tag=\(tag)&per_page=10&page=2"))
            #expect(paths.contains("/people/25/projects.json?tag=\(tag)&per_page=10&page=1"))

            let all = try await Plain.json(site.appendingPathComponent("projects.json"))
            let owned = (all.array ?? []).filter { $0.object?["person_id"] != .null }
            let fetched = harness.records("Project")
            #expect(fetched.count == owned.count)
            #expect(Set(fetched) == Set(owned))
            for payload in harness.payloads where payload.entity == "Project" {
                let owner = try #require(payload.fill["personId"])
                guard case .int(let id) = owner else {
                    Issue.record("personId fill is \(owner)")
                    continue
                }
                #expect(payload.origin.hasPrefix("\(site.absoluteString)/people/\(id)/projects.json?"))
                #expect(FetchHarness.records(of: payload).allSatisfy { $0.object?["person_id"] == .number(String(id)) })
            }
        }

        @Test("params with {id}: ActiveResource has_many, one query per parent")
        func hasManyParams() async throws {
            let site = try TestServers.rails()
            let tag = marker()
            let project = """
                source:
                  plugin: http
                  site: \(site.absoluteString)
                  params: { person_id: "{id}", tag: \(tag) }
                """
            let harness = try FetchHarness(Self.mapping(site: site, project: project))
            try await harness.fetch(["Person"])
            try await harness.fetch(["Project"])
            let paths = try await Plain.requestedPaths(site, containing: tag)
            #expect(Set(paths) == Set((1...25).map { "/projects.json?person_id=\($0)&tag=\(tag)" }))
            #expect(paths.count == 25)
            let fromPersonTwo = harness.payloads.filter { $0.fill["personId"] == .int(2) }.flatMap(
                FetchHarness.records(of:))
            #expect(fromPersonTwo.compactMap { $0.object?["id"] } == ["13", "36", "59"].map(JSONValue.number))
            #expect(harness.records("Project").count == 59)
        }

        @Test("a nested fetch of a missing parent fails the fetch, naming method, URL and status")
        func missingParent() async throws {
            let site = try TestServers.rails()
            let harness = try FetchHarness(Self.mapping(site: site, project: "nested_path: people/{personId}/projects"))
            let source = try harness.source(for: "Project")
            let context = FetchContext(
                model: harness.model, deliver: { _ in }, identities: { _ in [IdentityKey([.int(999)])] },
                progress: { _ in })
            let error = try await #require(throws: FetchError.self) {
                try await source.fetch([try #require(harness.model.entity(named: "Project"))], context: context)
            }
            #expect(error.origin == "GET \(site.absoluteString)/people/999/projects.json")
            #expect(error.message.hasPrefix("fetching Project: HTTP 404 after 1 attempt: "))
            #expect(error.message.contains("Not Found"))
        }
    }
}

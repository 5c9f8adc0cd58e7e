import Foundation
import RMap
import RMapHTTP
import Testing

extension RailsServerSuites {
    /// Relationships of live objects loading on first access, and prefetching, against the Rails test app.
    @Suite("Live session faults")
    struct SessionFaultTests {
        @Test("a to-many loads through its nested route once; the second access sends nothing")
        func toManyOnce() async throws {
            let live = try await LiveHarness()
            let grace = try #require(try await live.session.fetch("CRMPerson", where: ["id": 3]).first)
            try await live.clearLog()
            let projects = try await grace.related("projects")
            #expect(try await live.log() == ["GET /people/3/projects.json?limit=10&offset=0"])
            #expect(projects.count == 2)
            #expect(try projects.allSatisfy { (try $0["personId"] as Int?) == 3 })
            try await live.clearLog()
            #expect(try await grace.related("projects").map(\.identity) == projects.map(\.identity))
            #expect(try await live.log().isEmpty)
        }

        @Test("a to-one reads the store first and sends one GET for an object it does not hold")
        func toOne() async throws {
            let live = try await LiveHarness()
            let projects = try await live.session.fetch("CRMProject", where: ["personId": 7])
            let sent = try await live.log()
            #expect(sent == ["GET /people/7/projects.json?limit=10&offset=0"], "\(sent)")
            let project = try #require(projects.first)
            try await live.clearLog()
            let owner = try #require(try await project.relatedObject("owner"))
            #expect(try await live.log() == ["GET /people/7.json"])
            let name: String? = try owner["lastName"]
            #expect(name == "Hamilton")
            #expect(try await project.relatedObject("owner")?.identity == [.int(7)])
            #expect(try await live.log() == ["GET /people/7.json"])
        }

        @Test("prefetching projects.tasks sends one request per route the key path needs, then none")
        func prefetch() async throws {
            let live = try await LiveHarness()
            let people = try await live.session.fetch(
                "CRMPerson", where: ["id": .oneOf([1, 2, 3])], prefetch: ["projects.tasks"])
            let log = try await live.log()
            // Person 1 has 12 projects (two pages of 10), 2 has 3, 3 has 2: 4 project pages, 17 task indexes.
            #expect(
                log.first
                    == "GET /people.json?id[]=1&id[]=2&id[]=3&limit=10&offset=0".replacingOccurrences(
                        of: "[]", with: "%5B%5D"))
            #expect(log.filter { $0.contains("/projects.json") }.count == 4)
            #expect(log.filter { $0.hasPrefix("GET /tasks.json?project_id=") }.count == 17)
            #expect(log.count == 1 + 4 + 17)
            try await live.clearLog()
            var tasks = 0
            for person in people {
                for project in try await person.related("projects") {
                    tasks += try await project.related("tasks").count
                }
            }
            // Project 1 has 12 tasks, 2-47 three each, 48-60 none: people 1, 2, 3 have 45, 6 and 6.
            #expect(tasks == 57)
            #expect(try await live.log().isEmpty)
        }
    }
}

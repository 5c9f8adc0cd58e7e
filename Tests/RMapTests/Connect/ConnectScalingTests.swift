import Testing

@testable import RMap

/// Connecting many sources to many destinations in `rmap run`'s streamed path (SQL joins in
/// the store's engine): every reference links, and the time of a large run is printed.
@Suite("Connect: scaling")
struct ConnectScalingTests {
    static let yaml = """
        rmap: 1
        naming: { entity_prefix: CRM }
        entities:
          CRMPerson:
            attributes: { id: int }
            relationships:
              ownedProjects: { to_many: CRMProject }
              memberOf: { to_many: CRMProject }
          CRMProject:
            attributes: { id: int, personId: int, teamMemberIds: [int] }
            relationships:
              owner:
                to_one: CRMPerson
                inverse: ownedProjects
                connect: { foreign_key: { personId: id } }
              teamMembers:
                to_many: CRMPerson
                inverse: memberOf
                connect: { foreign_key: { teamMemberIds: id } }
        """

    /// `people` people and `projects` projects, each with an owner and three team members, as JSON.
    static func payloads(people: Int, projects: Int) -> (people: String, projects: String) {
        let persons = (1...people).map { #"{"id": \#($0)}"# }
        let records = (1...projects).map { id in
            let members = (0..<3).map { String((id * 7 + $0) % people + 1) }.joined(separator: ", ")
            return #"{"id": \#(id), "person_id": \#(id % people + 1), "team_member_ids": [\#(members)]}"#
        }
        return ("[" + persons.joined(separator: ",\n") + "]", "[" + records.joined(separator: ",\n") + "]")
    }

    @Test("every reference links: one owner and three team members per project", arguments: [(30, 100), (3000, 10000)])
    func countedWork(people: Int, projects: Int) async throws {
        let run = try StreamedRun(Self.yaml)
        let json = Self.payloads(people: people, projects: projects)
        let report = try await run.run(["CRMPerson": json.people, "CRMProject": json.projects])
        #expect(report.dangling.isEmpty && report.connectErrors.isEmpty)
        var owned = 0
        var memberships = 0
        for person in try await run.reader().objects(of: "CRMPerson").fetchAll() {
            owned += try await person.related("ownedProjects").count
            memberships += try await person.related("memberOf").count
        }
        #expect(owned == projects && memberships == 3 * projects)
        #expect(try await run.ids("CRMProject", 1, "owner") == [2])
        #expect(try await run.ids("CRMProject", 1, "teamMembers").count == 3)
    }

    @Test("100k sources x 30k destinations")
    func measured() async throws {
        let run = try StreamedRun(Self.yaml)
        let json = Self.payloads(people: 30_000, projects: 100_000)
        let clock = ContinuousClock()
        var report: RunReport?
        let elapsed = try await clock.measure {
            report = try await run.run(["CRMPerson": json.people, "CRMProject": json.projects])
        }
        print("streamed run: 100k sources x 30k destinations, 400k references: \(elapsed)")
        let result = try #require(report)
        #expect(result.dangling.isEmpty && result.connectErrors.isEmpty)
        #expect(result.entities.first { $0.entity == "CRMProject" }?.inserted == 100_000)
        #expect(try await run.ids("CRMProject", 100_000, "owner") == [Int64(100_000 % 30_000 + 1)])
        let members = (0..<3).map { Int64((100_000 * 7 + $0) % 30_000 + 1) }
        #expect(Set(try await run.ids("CRMProject", 100_000, "teamMembers")) == Set(members))
    }
}

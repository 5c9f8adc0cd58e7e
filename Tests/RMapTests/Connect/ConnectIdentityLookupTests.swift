import Testing

@testable import RMap

/// Foreign keys to the destination's lone `int` identity, whatever the
/// identities' spread: close together, far apart, at the ends of the range.
/// Each case runs `rmap run`'s streamed path into a SQLite store.
@Suite("Connect: looking up by identity")
struct ConnectIdentityLookupTests {
    let run: StreamedRun

    init() throws {
        run = try StreamedRun(ConnectFixtures.crm)
    }

    /// The owner ids of projects whose `personId`s are `references`, run with the people
    /// `people` (none when `nil`: those stored take part), and the values reported dangling.
    func owners(of references: [Int64], people: [Int64]?) async throws -> (owners: [[Int64]], dangling: [Value]) {
        let projects = references.enumerated().map { #"{"id": \#(100 + $0), "person_id": \#($1)}"# }
        let projectsJSON = "[" + projects.joined(separator: ", ") + "]"
        let report: RunReport
        if let people {
            let peopleJSON = "[" + people.map { #"{"id": \#($0)}"# }.joined(separator: ", ") + "]"
            report = try await run.run(["CRMPerson": peopleJSON, "CRMProject": projectsJSON])
        } else {
            report = try await run.run(["CRMProject": projectsJSON])
        }
        let dangling = report.dangling.filter { $0.relationship == "owner" }.flatMap(\.values)
        var owners: [[Int64]] = []
        for index in references.indices { owners.append(try await run.ids("CRMProject", Int64(100 + index), "owner")) }
        return (owners, dangling)
    }

    @Test("ids close together: each finds its object; a gap and values beyond the range are dangling")
    func denseIdentities() async throws {
        let found = try await owners(of: [5, 3, 1, 0, 6, .min, .max], people: [1, 2, 4, 5])
        #expect(found.owners == [[5], [], [1], [], [], [], []])
        #expect(found.dangling == [.int(3), .int(0), .int(6), .int(.min), .int(.max)])
    }

    @Test("ids far apart: each finds its object; the others are dangling")
    func sparseIdentities() async throws {
        let found = try await owners(
            of: [9_000_000_000_000_000, -7, .min, 4, .max], people: [.min, -7, 3, 9_000_000_000_000_000])
        #expect(found.owners == [[9_000_000_000_000_000], [-7], [.min], [], []])
        #expect(found.dangling == [.int(4), .int(.max)])
    }

    @Test("a removed object is found by no reference")
    func removedDestination() async throws {
        try await run.run(["CRMPerson": #"[{"id": 1}, {"id": 2}]"#])
        try StoreKind.editLocally(
            try run.kind.open(run.directory), model: run.model, ["DELETE FROM people WHERE id = 2"])
        let found = try await owners(of: [2, 1], people: nil)
        #expect(found.owners == [[], [1]])
        #expect(found.dangling == [.int(2)])
    }

    @Test("an array of many members with repeats connects each match once, in the order of first appearance")
    func manyMembersWithRepeats() async throws {
        let people = (1...12).map { #"{"id": \#($0)}"# }.joined(separator: ", ")
        let members: [Int64] = [12, 3, 3, 99, 7, 1, 12] + Array(1...12).reversed()
        let report = try await run.run([
            "CRMPerson": "[\(people)]",
            "CRMProject": #"[{"id": 10, "team_member_ids": \#(members)}]"#,
        ])
        #expect(try await run.ids("CRMProject", 10, "teamMembers") == [12, 3, 7, 1, 11, 10, 9, 8, 6, 5, 4, 2])
        #expect(report.dangling.filter { $0.relationship == "teamMembers" }.map(\.values) == [[.int(99)]])
    }
}

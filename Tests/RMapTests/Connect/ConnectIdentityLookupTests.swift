import Testing

@testable import RMap

/// Foreign keys to the destination's lone `int` identity, which the
/// destination's identities answer without an index of their own: an array
/// over their range when they lie close together, the identity map otherwise.
@Suite("Connect: looking up by identity")
struct ConnectIdentityLookupTests {
    let graph: ObjectGraph

    init() throws {
        graph = ObjectGraph(schema: try ConnectFixtures.crmSchema())
    }

    func connect() -> ConnectReport { Connector(schema: graph.schema).connect(graph) }

    /// The owner ids of projects whose `personId`s are `references`, and the values reported dangling.
    func owners(of references: [Int64]) throws -> (owners: [[Int64]], dangling: [Value]) {
        let projects = try references.enumerated().map { index, id in
            try graph.add("CRMProject", ["id": .int(Int64(100 + index)), "personId": .int(id)])
        }
        let report = connect()
        let dangling = report.dangling.filter { $0.relationship == "owner" }.flatMap(\.values)
        return (try projects.map { try $0.ids("owner") }, dangling)
    }

    @Test("ids close together: each finds its object; a gap and values beyond the range are dangling")
    func denseIdentities() throws {
        for id: Int64 in [1, 2, 4, 5] { try graph.add("CRMPerson", ["id": .int(id)]) }
        let found = try owners(of: [5, 3, 1, 0, 6, .min, .max])
        #expect(found.owners == [[5], [], [1], [], [], [], []])
        #expect(found.dangling == [.int(3), .int(0), .int(6), .int(.min), .int(.max)])
    }

    @Test("ids far apart: each finds its object through the identity map; the others are dangling")
    func sparseIdentities() throws {
        for id: Int64 in [.min, -7, 3, 9_000_000_000_000_000] { try graph.add("CRMPerson", ["id": .int(id)]) }
        let found = try owners(of: [9_000_000_000_000_000, -7, .min, 4, .max])
        #expect(found.owners == [[9_000_000_000_000_000], [-7], [.min], [], []])
        #expect(found.dangling == [.int(4), .int(.max)])
    }

    @Test("a removed object is found by no reference")
    func removedDestination() throws {
        try graph.add("CRMPerson", ["id": .int(1)])
        let removed = try graph.add("CRMPerson", ["id": .int(2)])
        graph.remove(removed)
        let found = try owners(of: [2, 1])
        #expect(found.owners == [[], [1]])
        #expect(found.dangling == [.int(2)])
    }

    @Test("an array of many members with repeats connects each match once, in the order of first appearance")
    func manyMembersWithRepeats() throws {
        for id in 1...12 { try graph.add("CRMPerson", ["id": .int(Int64(id))]) }
        let members: [Int64] = [12, 3, 3, 99, 7, 1, 12] + Array(1...12).reversed()
        let project = try graph.add("CRMProject", ["id": .int(10), "teamMemberIds": .array(members.map(Value.int))])
        let report = connect()
        #expect(try project.ids("teamMembers") == [12, 3, 7, 1, 11, 10, 9, 8, 6, 5, 4, 2])
        #expect(report.dangling.filter { $0.relationship == "teamMembers" }.map(\.values) == [[.int(99)]])
    }
}

import Foundation
import Testing

@testable import RMap

/// The packed graph (``ObjectTable``): values read back as written, the
/// identity map through growth and removals, to-many links by row.
@Suite("Graph: packed objects")
struct PackedGraphTests {
    typealias F = StoreFixtures

    @Test("every kind of value reads back as written, missing and null apart")
    func valuesRoundTrip() throws {
        let graph = ObjectGraph(schema: try F.schema())
        let person = F.add(graph, "CRMPerson", ["id": .int(-7)])
        let json = try JSONReader.parse(#"{"k":[1,2.50],"s":"x"}"#, origin: "test")
        let values: [String: Value] = [
            "firstName": .string("Ünïcødé and a longer text than fifteen bytes"),
            "budget": .decimal(DecimalNumber("12.50")!), "admin": .bool(false), "score": .double(-2.5e-300),
            "bornOn": .date(LocalDate(year: 1601, month: 2, day: 28)!),
            "seenAt": .datetime(Timestamp(milliseconds: -62_135_596_800_000)),
            "tags": .array([.string("a"), .null, .array([.int(Int64.max)])]), "raw": .json(json), "homepage": .null,
        ]
        for (name, value) in values { try person.set(name, to: value) }
        for (name, value) in values { #expect(person[attribute: name] == value, "\(name)") }
        #expect(person[attribute: "id"] == .int(-7))
        #expect(person[attribute: "level"] == nil, "a key no payload carried stays missing")
        #expect(try graph.object(of: "CRMPerson", identity: [.int(-7)]) == person)
    }

    @Test("the identity map finds every object through growth, removals and re-indexing")
    func identityMapUnderRemovals() throws {
        let graph = ObjectGraph(schema: try F.schema())
        let ids = (0..<5_000).map { Int64($0) * 1_048_576 }  // keys that share low bits
        for id in ids { F.add(graph, "CRMPerson", ["id": .int(id)]) }
        for id in ids where id % 3 == 0 {
            graph.remove(try #require(try graph.object(of: "CRMPerson", identity: [.int(id)])))
        }
        for id in ids {
            let object = try graph.object(of: "CRMPerson", identity: [.int(id)])
            #expect((object == nil) == (id % 3 == 0), "\(id)")
            #expect(object.map { $0[attribute: "id"] == .int(id) } ?? true)
        }
        #expect(try graph.objects(of: "CRMPerson").count == ids.filter { $0 % 3 != 0 }.count)

        let moved = try #require(try graph.object(of: "CRMPerson", identity: [.int(ids[1])]))
        try moved.set("id", to: .int(-1))
        #expect(try graph.object(of: "CRMPerson", identity: [.int(-1)]) == moved)
        #expect(try graph.object(of: "CRMPerson", identity: [.int(ids[1])]) == nil, "the old identity is not the object's")
    }

    @Test("a to-many keeps its objects in order, rewritten shorter (in place) and longer (moved)")
    func linksByRow() throws {
        let graph = ObjectGraph(schema: try F.schema())
        let ann = F.add(graph, "CRMPerson", ["id": .int(1)])
        let projects = (10..<14).map { F.add(graph, "CRMProject", ["id": .int(Int64($0))]) }
        let position = try #require(ann.type.relationshipIndex("projects"))
        ann.setRelated(at: position, to: projects.reversed())
        #expect(ann.related(at: position) == projects.reversed())
        ann.setRelated(at: position, to: [projects[0]])
        #expect(ann.related(at: position) == [projects[0]], "a shorter list is rewritten in place")
        ann.setRelated(at: position, to: projects)
        #expect(ann.related(at: position) == projects, "a longer one moves")
    }
}

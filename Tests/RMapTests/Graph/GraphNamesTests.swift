import Foundation
import Testing

@testable import RMap

/// The name-based graph API (`GraphObject+Names.swift`): typed reads, writes that
/// keep the identity map current and write one value, and ``GraphError`` for
/// unknown names and wrong types.
@Suite("Graph: reads and writes by name")
struct GraphNamesTests {
    typealias F = StoreFixtures

    /// Ann (an admin, every type of value), her project 10 and its team (Ann).
    private func annAndProject() throws -> (ObjectGraph, ann: GraphObject, project: GraphObject) {
        let graph = ObjectGraph(schema: try F.schema())
        var values = F.everyType
        values["id"] = .int(1)
        values["homepage"] = .null
        values["level"] = .int(3)
        let ann = F.add(graph, "CRMAdmin", values)
        let project = F.add(graph, "CRMProject", ["id": .int(10), "name": .string("Apollo")])
        F.link(project, "owner", [ann])
        F.link(project, "teamMembers", [ann])
        F.link(ann, "projects", [project])
        return (graph, ann, project)
    }

    @Test("typed reads give each value as its Swift type; null and missing read as nil")
    func typedReads() throws {
        let (_, ann, project) = try annAndProject()
        #expect(try ann["firstName"] == "Zoë \"q\" \\ tab\there\nline, 東京 🚀")
        #expect(try ann["id"] == 1)
        #expect(try ann["level"] == 3, "a sub-entity's own attribute")
        #expect(try ann["score"] == 0.1)
        #expect(try ann["id"] == 1.0, "an integer reads as a Double too")
        #expect(try ann["admin"] == false)
        #expect(try ann["budget"] == DecimalNumber("1234.50"))
        #expect(try ann["budget"] == Decimal(string: "1234.5"))
        #expect(try ann["bornOn"] == LocalDate(year: 1985, month: 12, day: 10))
        #expect(try ann["bornOn"] == Date(timeIntervalSince1970: 503_020_800))
        #expect(try ann["seenAt"] == Timestamp(milliseconds: 1_700_000_000_123))
        #expect(try ann["seenAt"] == Date(timeIntervalSince1970: 1_700_000_000.123))
        #expect(try ann["tags"] == Value.array([.string("a"), .string("b \"c\" \\"), .string("")]))
        let homepage: String? = try ann["homepage"]
        #expect(homepage == nil, "a null value")
        let name: String? = try project["personId"]
        #expect(name == nil, "a value no payload carried")
    }

    @Test("relationships read by name: to-one and to-many")
    func relationshipReads() throws {
        let (_, ann, project) = try annAndProject()
        #expect(try project.relatedObject("owner") == ann)
        #expect(try project.relatedObject("manager") == nil)
        #expect(try project.related("teamMembers") == [ann])
        #expect(try ann.related("projects") == [project])
        #expect(try project.related("manager") == [])
    }

    @Test("an unknown name or a wrong type throws a GraphError naming the entity")
    func errors() throws {
        let (_, ann, project) = try annAndProject()
        #expect(throws: GraphError.unknownAttribute(entity: "CRMAdmin", name: "fristName")) {
            let _: String? = try ann["fristName"]
        }
        #expect(throws: GraphError.unknownAttribute(entity: "CRMProject", name: "level")) {
            try project.set("level", to: 2)
        }
        #expect(throws: GraphError.unknownRelationship(entity: "CRMProject", name: "owners")) {
            try project.related("owners")
        }
        #expect(throws: GraphError.unknownRelationship(entity: "CRMProject", name: "name")) {
            try project.relatedObject("name")
        }
        #expect(throws: GraphError.wrongType(entity: "CRMAdmin", attribute: "firstName", expected: "Int", found: .string("Zoë \"q\" \\ tab\there\nline, 東京 🚀"))) {
            let _: Int? = try ann["firstName"]
        }
        let error = GraphError.wrongType(entity: "CRMAdmin", attribute: "admin", expected: "String", found: .bool(false))
        #expect(error.description == "CRMAdmin.admin is false, not a String")
    }

    @Test("an unknown entity name throws at every graph entry point; a known one without the object is nil or empty")
    func unknownEntity() throws {
        let (graph, ann, _) = try annAndProject()
        #expect(throws: GraphError.unknownEntity("CRMPersn")) { try graph.object(of: "CRMPersn", identity: [.int(1)]) }
        #expect(throws: GraphError.unknownEntity("CRMPersn")) { try graph.objects(of: "CRMPersn") }
        #expect(throws: GraphError.unknownEntity("CRMPersn")) { try graph.insert("CRMPersn") }
        #expect(graph.count == 2, "a failed insert adds nothing")
        #expect(GraphError.unknownEntity("CRMPersn").description == "no entity named 'CRMPersn'")

        #expect(try graph.object(of: "CRMPerson", identity: [.int(2)]) == nil, "a known entity with no such object")
        #expect(try graph.object(of: "CRMPerson", identity: [.int(1)]) == ann, "an admin is found as a person")
        #expect(try graph.objects(of: "CRMPerson") == [ann])
        #expect(try graph.objects(of: "CRMAdmin") == [ann])
        let empty = ObjectGraph(schema: graph.schema)
        #expect(try empty.objects(of: "CRMPerson").isEmpty, "a known entity with no objects")
        let inserted = try graph.insert("CRMPerson")
        #expect(inserted.type.name == "CRMPerson" && graph.count == 3)
    }

    @Test("set writes the value, from a Value or a Swift value, and leaves the others as they were")
    func writes() throws {
        let (_, ann, _) = try annAndProject()
        let before = ann.values
        try ann.set("firstName", to: "Grace")
        try ann.set("score", to: .null)
        try ann.set("seenAt", to: Date(timeIntervalSince1970: 1.5))
        try ann.set("budget", to: Decimal(string: "9.75")!)
        #expect(try ann["firstName"] == "Grace")
        #expect(ann[attribute: "score"] == .null)
        #expect(ann[attribute: "seenAt"] == .datetime(Timestamp(milliseconds: 1500)))
        #expect(ann[attribute: "budget"] == .decimal(DecimalNumber("9.75")!))
        var expected = before
        for (name, value) in [
            ("firstName", Value.string("Grace")), ("score", .null), ("seenAt", .datetime(Timestamp(milliseconds: 1500))),
            ("budget", .decimal(DecimalNumber("9.75")!)),
        ] {
            expected[try #require(ann.type.attributeIndex(name))] = value
        }
        #expect(ann.values == expected, "the whole row reads with the new values and the others unchanged")
    }

    @Test("setting an identity attribute moves the object in the identity map; a taken identity throws")
    func identityAfterSet() throws {
        let (graph, ann, _) = try annAndProject()
        let bob = F.add(graph, "CRMPerson", ["id": .int(2)])
        try ann.set("id", to: 5)
        #expect(try graph.object(of: "CRMPerson", identity: [.int(5)]) == ann)
        #expect(try graph.object(of: "CRMPerson", identity: [.int(1)]) == nil, "the old identity is not Ann's")
        #expect(throws: GraphError.identityTaken(entity: "CRMPerson", identity: IdentityKey([.int(5)]))) {
            try bob.set("id", to: 5)
        }
        #expect(try bob["id"] == 2, "a refused set changes nothing")
        #expect(try graph.object(of: "CRMPerson", identity: [.int(2)]) == bob)

        let new = try graph.insert("CRMProject")
        #expect(new.identity.isIncomplete)
        try new.set("id", to: 11)
        #expect(try graph.object(of: "CRMProject", identity: [.int(11)]) == new, "a new object gets its identity")
        try new.set("id", to: .null)
        #expect(try graph.object(of: "CRMProject", identity: [.int(11)]) == nil, "a null identity is none")
    }

    @Test("set rewrites a value of the same size in place and appends only the value otherwise")
    func arenaGrowth() throws {
        let (graph, ann, _) = try annAndProject()
        let table = graph.table(ann.root)
        let start = table.valueBytes
        F.add(graph, "CRMPerson", F.everyType.merging(["id": .int(99)]) { $1 })
        let rowBytes = table.valueBytes - start

        var bytes = table.valueBytes
        try ann.set("admin", to: true)
        try ann.set("score", to: 2.5)
        try ann.set("firstName", to: "Zoë \"Q\" \\ TAB\tHERE\nLINE, 東京 🚀")
        #expect(table.valueBytes == bytes, "values of the same size are rewritten in place")
        #expect(try ann["admin"] == true && ann["score"] == 2.5)

        bytes = table.valueBytes
        try ann.set("city", to: "Paris")
        let grown = table.valueBytes - bytes
        #expect(grown > 0 && grown <= 1 + 8 + 2 + 5, "a patch: position, base, the value")
        #expect(grown * 5 < rowBytes, "far less than the row")
        #expect(try ann["city"] == "Paris")
    }

    @Test("many sets on one object read back right, across the rewrite that folds its patches")
    func manySets() throws {
        let (graph, ann, _) = try annAndProject()
        let names = ["city", "homepage", "firstName"]
        for round in 0..<(3 * ValueArena.patchLimit) {
            try ann.set(names[round % 3], to: String(repeating: "x", count: round + 1))
        }
        for (offset, name) in names.enumerated() {
            let last = (0..<(3 * ValueArena.patchLimit)).last { $0 % 3 == offset }!
            #expect(try ann[name] == String(repeating: "x", count: last + 1), "\(name)")
        }
        #expect(try ann["id"] == 1 && ann["level"] == 3)
        #expect(try graph.object(of: "CRMAdmin", identity: [.int(1)]) == ann)
    }
}

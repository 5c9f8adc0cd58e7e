import Foundation
import Testing

@testable import RMap

/// Objects read by name once `rmap run`'s streamed path stored them: typed reads, relationships,
/// and ``ReadError`` for unknown names and wrong types. (The in-memory graph's writes by name,
/// its identity map and its value arena have no counterpart in a store.)
@Suite("Graph: reads and writes by name")
struct GraphNamesTests {
    typealias F = StoreFixtures

    /// Ann (an admin, every type of value) and her nested project 10, whose team is Ann.
    static let annAndProject = #"""
        [{"id": 1, "type": "Admin", "level": 3, "first_name": "Zoë \"q\" \\ tab\there\nline, 東京 🚀",
          "address": {"city": ""}, "budget": "1234.50", "admin": false, "born_on": "1985-12-10",
          "seen_at": "2023-11-14T22:13:20.123Z", "score": 0.1, "tags": ["a", "b \"c\" \\", ""],
          "raw": {"a": 1.50, "b": [true, null, "x"]}, "homepage": null,
          "projects": [{"id": 10, "name": "Apollo", "team_member_ids": [1]}]}]
        """#

    /// A store holding Ann and her project.
    private func stored() async throws -> (StreamedRun, ann: StoreObject, project: StoreObject) {
        let run = try StreamedRun(F.crm)
        let report = try await run.run(["CRMPerson": Self.annAndProject])
        #expect(!report.hasProblems, "\(report.recordErrors) \(report.dangling)")
        return (run, try await run.object("CRMPerson", 1), try await run.object("CRMProject", 10))
    }

    @Test("typed reads give each value as its Swift type; null and missing read as nil")
    func typedReads() async throws {
        let (_, ann, project) = try await stored()
        #expect(ann.entity == "CRMAdmin")
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
    func relationshipReads() async throws {
        let (_, ann, project) = try await stored()
        #expect(try await project.relatedObject("owner")?.description == ann.description)
        #expect(try await project.relatedObject("manager") == nil)
        #expect(try await project.related("teamMembers").map(\.description) == [ann.description])
        #expect(try await ann.related("projects").map(\.description) == [project.description])
    }

    @Test("an unknown name or a wrong type throws a ReadError naming the entity")
    func errors() async throws {
        let (_, ann, project) = try await stored()
        #expect(throws: ReadError.unknownAttribute(entity: "CRMAdmin", name: "fristName")) {
            let _: String? = try ann["fristName"]
        }
        await #expect(throws: ReadError.unknownRelationship(entity: "CRMProject", name: "owners")) {
            try await project.related("owners")
        }
        await #expect(throws: ReadError.unknownRelationship(entity: "CRMProject", name: "name")) {
            try await project.relatedObject("name")
        }
        let text = "Zoë \"q\" \\ tab\there\nline, 東京 🚀"
        #expect(
            throws: ReadError.wrongType(
                entity: "CRMAdmin", attribute: "firstName", expected: "Int", found: .string(text))
        ) {
            let _: Int? = try ann["firstName"]
        }
        let error = ReadError.wrongType(entity: "CRMAdmin", attribute: "admin", expected: "String", found: .bool(false))
        #expect(error.description == "CRMAdmin.admin is false, not a String")
    }

    @Test("an unknown entity name throws at every read entry point; a known one without the object is nil or empty")
    func unknownEntity() async throws {
        let (run, ann, _) = try await stored()
        let reader = try run.reader()
        await #expect(throws: ReadError.unknownEntity("CRMPersn")) {
            try await reader.object("CRMPersn", identity: [.int(1)])
        }
        await #expect(throws: ReadError.unknownEntity("CRMPersn")) {
            try await reader.objects(of: "CRMPersn").fetchAll()
        }
        #expect(ReadError.unknownEntity("CRMPersn").description == "no entity named 'CRMPersn'")

        #expect(try await reader.object("CRMPerson", identity: [.int(2)]) == nil, "a known entity with no such object")
        #expect(
            try await reader.object("CRMPerson", identity: [.int(1)])?.description == ann.description,
            "an admin is found as a person")
        #expect(try await reader.objects(of: "CRMPerson").fetchAll().map(\.description) == [ann.description])
        #expect(try await reader.objects(of: "CRMAdmin").fetchAll().map(\.description) == [ann.description])
        let empty = try StreamedRun(F.crm)
        try await empty.run(["CRMPerson": "[]"])
        #expect(try await empty.reader().objects(of: "CRMPerson").fetchAll().isEmpty, "a known entity with no objects")
    }
}

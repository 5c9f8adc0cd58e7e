import Testing

@testable import RMap

/// Several records of one parent in a run: the last one that names a nested set names it, in a
/// join table as in the children's foreign keys, and `null` empties a union before later records
/// add to it (docs/mapping.md, "What a run writes"); on each engine, as their merges differ.
@Suite("Nested sets named by several occurrences of a parent")
struct NestedOccurrenceTests {
    static let model = """
        rmap: 1
        entities:
          Member:
            attributes:
              id: int
            relationships:
              skills: { to_many: Skill, nested: true }
              tags: { to_many: Tag, nested: true, assignment: union }
              projects: { to_many: Project, inverse: owner, nested: true, assignment: union }
          Skill:
            source: false
            attributes:
              id: int
          Tag:
            source: false
            attributes:
              id: int
          Project:
            attributes:
              id: int
            relationships:
              owner: { to_one: Member }
        """

    @Test("a join table's set is the last occurrence's", arguments: StoreKind.all)
    func joinTableReplace(kind: StoreKind) async throws {
        let run = try StreamedRun(Self.model, kind: kind)
        try await run.run(["Member": #"[{"id": 1, "skills": [{"id": 5}]}, {"id": 2, "skills": [{"id": 6}]}]"#])
        try await run.run([
            "Member":
                #"[{"id": 1, "skills": [{"id": 1}, {"id": 2}]}, {"id": 2}, {"id": 1, "skills": [{"id": 2}, {"id": 3}]}]"#
        ])
        #expect(try await run.ids("Member", 1, "skills") == [2, 3])
        #expect(try await run.ids("Member", 2, "skills") == [6])
    }

    @Test(
        "null empties a union held in a join table; later occurrences add, [] changes nothing", arguments: StoreKind.all
    )
    func unionNullOfJoinTable(kind: StoreKind) async throws {
        let run = try StreamedRun(Self.model, kind: kind)
        try await run.run(["Member": #"[{"id": 1, "tags": [{"id": 1}]}, {"id": 2, "tags": [{"id": 1}]}]"#])
        try await run.run([
            "Member":
                #"[{"id": 1, "tags": [{"id": 2}]}, {"id": 1, "tags": null}, {"id": 1, "tags": [{"id": 3}]}, {"id": 2, "tags": [{"id": 4}]}]"#
        ])
        #expect(try await run.ids("Member", 1, "tags") == [3])
        #expect(try await run.ids("Member", 2, "tags") == [1, 4])
        try await run.run(["Member": #"[{"id": 1, "tags": null}, {"id": 1, "tags": []}, {"id": 2, "tags": []}]"#])
        #expect(try await run.ids("Member", 1, "tags").isEmpty)
        #expect(try await run.ids("Member", 2, "tags") == [1, 4])
    }

    @Test("null empties a union held by the children's foreign keys; later occurrences add", arguments: StoreKind.all)
    func unionNullOfChildren(kind: StoreKind) async throws {
        let run = try StreamedRun(Self.model, kind: kind)
        try await run.run(["Member": #"{"id": 1, "projects": [{"id": 10}]}"#])
        try await run.run([
            "Member":
                #"[{"id": 1, "projects": [{"id": 11}]}, {"id": 1, "projects": null}, {"id": 1, "projects": [{"id": 12}]}]"#
        ])
        #expect(try await run.ids("Member", 1, "projects") == [12])
        // A union deletes nothing: the projects it left stay stored, without owner.
        for id: Int64 in [10, 11] { #expect(try await run.ids("Project", id, "owner").isEmpty, "\(id)") }
        try await run.run(["Member": #"[{"id": 1, "projects": [{"id": 13}]}, {"id": 1, "projects": []}]"#])
        #expect(try await run.ids("Member", 1, "projects") == [12, 13])
        try await run.run(["Member": #"{"id": 1, "projects": null}"#])
        #expect(try await run.ids("Member", 1, "projects").isEmpty)
        #expect(try await run.reader().objects(of: "Project").fetchAll().count == 4)
    }
}

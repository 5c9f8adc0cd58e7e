import Testing

@testable import RMap

/// Nested records, prepared on the parsing thread and converted by the mapper, as `rmap run`'s
/// streamed path stores them: each is read back from the store with its values and links.
@Suite("Records prepared on the parsing thread")
struct FieldPreparerTests {
    static let model = """
        rmap: 1
        entities:
          Person:
            attributes:
              id: int
              name: string
            relationships:
              projects: { to_many: Project, inverse: owner, nested: true }
              tags: { to_many: Tag, nested: true }
              address: { to_one: Address, nested: true }
              pets: { to_many: Pet, nested: true }
          Project:
            attributes:
              id: int
              title: string
            relationships:
              owner: { to_one: Person, nested: true }
              tasks: { to_many: Task, nested: true }
          Milestone:
            extends: Project
            attributes:
              due: string
          Task:
            attributes:
              id: int
              done: bool
          Tag:
            attributes:
              id: int
          Address:
            attributes:
              id: int
              city: string
          Pet:
            type_key: kind
            attributes:
              id: int
        """

    static let person = """
        {"id": 1, "name": "Ada",
         "projects": [{"id": 10, "title": "A", "tasks": [{"id": 100, "done": true}]}, {"project": {"id": 11}}],
         "tags": [7, 8], "address": {"address": {"id": 5, "city": "Paris"}}, "pets": [{"id": 3, "kind": "Pet"}]}
        """

    /// The integer identities of the objects `name` of `entity` `id` holds, and their `attribute`s.
    private func related(_ run: StreamedRun, _ entity: String, _ id: Int64, _ name: String, _ attribute: String)
        async throws -> [[Value?]]
    {
        try await run.object(entity, id).relationship(name).fetchAll().map {
            [$0.identity.first, $0.values[attribute]]
        }
    }

    @Test("nested objects are converted ahead with their destination's plan; scalars and typed records are left")
    func preparesNestedObjects() async throws {
        let run = try StreamedRun(Self.model)
        let report = try await run.run(["Person": "[\(Self.person)]"])
        #expect(!report.hasProblems, "\(report.recordErrors)")
        let person = try await run.object("Person", 1)
        #expect(person.values["id"] == .int(1) && person.values["name"] == .string("Ada"))
        #expect(
            try await related(run, "Person", 1, "projects", "title") == [[.int(10), .string("A")], [.int(11), .null]])
        #expect(
            try await run.ids("Project", 10, "owner") == [1], "a project's owner key is missing: the inverse holds it")
        #expect(try await related(run, "Project", 10, "tasks", "done") == [[.int(100), .bool(true)]])
        #expect(try await run.ids("Person", 1, "tags") == [7, 8], "scalar tags become records in the mapper")
        #expect(try await related(run, "Person", 1, "address", "city") == [[.int(5), .string("Paris")]])
        #expect(try await run.ids("Person", 1, "pets") == [3], "a pet's type key picks its entity in the mapper")
    }

    @Test("the mapper takes nested records' attributes as prepared")
    func mapperUsesPrepared() async throws {
        let run = try StreamedRun(Self.model)
        try await run.run(["Person": "[\(Self.person.replacingOccurrences(of: "\"A\"", with: "\"prepared\""))]"])
        #expect(
            try await related(run, "Person", 1, "projects", "title") == [
                [.int(10), .string("prepared")], [.int(11), .null],
            ])
        #expect(try await related(run, "Project", 10, "tasks", "done") == [[.int(100), .bool(true)]])
        #expect(try await related(run, "Person", 1, "tags", "id") == [[.int(7), .int(7)], [.int(8), .int(8)]])
    }

    @Test("a nested record that turns out a sub-entity is converted again, its nested records too")
    func subEntityConvertsAgain() async throws {
        let run = try StreamedRun(Self.model)
        try await run.run(["Milestone": #"[{"id": 10, "title": "M", "due": "May"}]"#])
        try await run.run(["Person": "[\(Self.person)]"])
        let project = try await run.object("Project", 10)
        #expect(project.entity == "Milestone")
        #expect(project.values["title"] == .string("A") && project.values["due"] == .string("May"))
        #expect(try await related(run, "Project", 10, "tasks", "done") == [[.int(100), .bool(true)]])
    }
}

import Testing

@testable import RMap

/// Nested records through `rmap run`'s streamed path: mapped with their destination's mapping,
/// linked both ways, replaced or unioned, rejected with their parent; read back from the store.
@Suite("Nested relationships")
struct NestedRelationshipTests {
    static let model = """
        rmap: 1
        naming: { entity_prefix: CRM }
        entities:
          CRMPerson:
            attributes:
              id: int
              name: string
            relationships:
              projects: { to_many: CRMProject, inverse: owner, nested: true }
              tags: { to_many: CRMTag, nested: true, key: labels, assignment: union }
              address: { to_one: CRMAddress, inverse: person, nested: true }
          CRMProject:
            source: false
            attributes:
              id: int
              title: { type: string, required: true }
            relationships:
              owner: { to_one: CRMPerson, nested: true }
              tasks: { to_many: CRMTask, inverse: project, nested: true }
          CRMTask:
            source: false
            attributes:
              id: int
              done: bool
            relationships:
              project: { to_one: CRMProject }
          CRMTag:
            source: false
            attributes:
              id: int
              label: string
          CRMAddress:
            source: false
            attributes:
              id: int
              city: string
            relationships:
              person: { to_one: CRMPerson }
        """

    /// Fetched, inserted and rejected records of `entity` in `report`.
    static func counts(_ report: RunReport, _ entity: String) -> [Int] {
        let counts = report.entities.first { $0.entity == entity }
        return [counts?.fetched ?? -1, counts?.inserted ?? -1, counts?.rejected ?? -1]
    }

    /// The owner of project `id`; none when the project is gone (projects only exist nested:
    /// one that no person lists any more is deleted, docs/mapping.md "Objects that only exist nested").
    static func owner(_ run: StreamedRun, _ id: Int64) async throws -> [Int64] {
        guard let project = try await run.reader().object("CRMProject", identity: [.int(id)]) else { return [] }
        return StreamedRun.ids(try await project.relationship("owner").fetchAll())
    }

    /// How many objects the store holds, over every root entity.
    static func stored(_ run: StreamedRun) async throws -> Int {
        var count = 0
        for entity in ["CRMPerson", "CRMProject", "CRMTask", "CRMTag", "CRMAddress"] {
            count += try await run.reader().objects(of: entity).fetchAll().count
        }
        return count
    }

    @Test("embedded arrays and objects are mapped with the destination's mapping and linked both ways")
    func nestedToManyAndToOne() async throws {
        let run = try StreamedRun(Self.model)
        let report = try await run.run([
            "CRMPerson": """
            {"id": 1, "name": "Ada",
             "projects": [{"id": 10, "title": "A"}, {"project": {"id": 11, "title": "B"}}],
             "address": {"id": 5, "city": "Paris"}}
            """
        ])
        #expect(report.recordErrors == [])
        #expect(try await run.ids("CRMPerson", 1, "projects") == [10, 11])
        #expect(try await run.object("CRMProject", 11).values["title"] == .string("B"))
        #expect(try await run.ids("CRMProject", 10, "owner") == [1])
        let address = try #require(try await run.object("CRMPerson", 1).relatedObject("address"))
        #expect(address.values["city"] == .string("Paris"))
        #expect(try await address.relatedObject("person")?.identity == [.int(1)])
        #expect(Self.counts(report, "CRMProject") == [2, 2, 0])
        #expect(Self.counts(report, "CRMAddress") == [1, 1, 0])
    }

    @Test("records nest within nested records")
    func nestedWithinNested() async throws {
        let run = try StreamedRun(Self.model)
        try await run.run([
            "CRMPerson":
                #"{"id": 1, "projects": [{"id": 10, "title": "A", "tasks": [{"id": 100, "done": true}, {"id": 101}]}]}"#
        ])
        #expect(try await run.ids("CRMProject", 10, "tasks") == [100, 101])
        #expect(try await run.ids("CRMTask", 100, "project") == [10])
        #expect(try await run.object("CRMTask", 100).values["done"] == .bool(true))
    }

    @Test("a nested to-one sets its to-many inverse")
    func toOneWithToManyInverse() async throws {
        let run = try StreamedRun(Self.model)
        let report = try await run.run([
            "CRMProject":
                #"[{"id": 10, "title": "A", "owner": {"id": 1, "name": "Ada"}}, {"id": 11, "title": "B", "owner": {"id": 1}}]"#
        ])
        #expect(try await run.object("CRMPerson", 1).values["name"] == .string("Ada"))
        #expect(try await run.ids("CRMPerson", 1, "projects") == [10, 11])
        #expect(Self.counts(report, "CRMPerson") == [2, 1, 0])
    }

    @Test("replace sets the new members and unlinks the old ones; union adds")
    func assignment() async throws {
        let run = try StreamedRun(Self.model)
        try await run.run([
            "CRMPerson":
                #"{"id": 1, "projects": [{"id": 10, "title": "A"}, {"id": 11, "title": "B"}], "labels": [{"id": 1}, {"id": 2}]}"#,
            "CRMPerson":
                #"{"id": 1, "projects": [{"id": 11}, {"id": 12, "title": "C"}, {"id": 11}], "labels": [{"id": 2}, {"id": 3}]}"#,
        ])
        #expect(try await run.ids("CRMPerson", 1, "projects") == [11, 12])
        #expect(try await Self.owner(run, 10).isEmpty)
        #expect(try await run.object("CRMProject", 11).values["title"] == .string("B"))
        #expect(try await run.ids("CRMPerson", 1, "tags") == [1, 2, 3])
    }

    @Test("replace and union keep each member once and unlink the old ones, with many members as with few")
    func assignmentOfManyMembers() async throws {
        let run = try StreamedRun(Self.model)
        func record(projects: [Int], labels: [Int]) -> String {
            let projects = projects.map { #"{"id": \#($0), "title": "P\#($0)"}"# }.joined(separator: ",")
            let labels = labels.map { #"{"id": \#($0)}"# }.joined(separator: ",")
            return #"{"id": 1, "projects": [\#(projects)], "labels": [\#(labels)]}"#
        }
        try await run.run([
            "CRMPerson": record(projects: Array(1...30), labels: Array(1...20)),
            "CRMPerson": record(projects: Array(20...40) + [25, 20], labels: Array(15...30) + [3]),
        ])
        #expect(try await run.ids("CRMPerson", 1, "projects") == Array(20...40))
        #expect(try await run.ids("CRMPerson", 1, "tags") == Array(1...30))
        for id: Int64 in [1, 19] { #expect(try await Self.owner(run, id).isEmpty, "\(id)") }
        for id: Int64 in [20, 40] { #expect(try await run.ids("CRMProject", id, "owner") == [1], "\(id)") }
    }

    @Test("null clears a nested relationship; a missing key keeps it")
    func nullAndMissing() async throws {
        let run = try StreamedRun(Self.model)
        try await run.run([
            "CRMPerson":
                #"{"id": 1, "projects": [{"id": 10, "title": "A"}], "address": {"id": 5}, "labels": [{"id": 1}]}"#,
            "CRMPerson": #"{"id": 1, "name": "Ada"}"#,
        ])
        #expect(try await run.ids("CRMPerson", 1, "projects").count == 1)
        #expect(try await run.ids("CRMPerson", 1, "address") == [5])
        try await run.run(["CRMPerson": #"{"id": 1, "projects": null, "address": null, "labels": null}"#])
        #expect(try await run.ids("CRMPerson", 1, "projects").isEmpty)
        #expect(try await run.ids("CRMPerson", 1, "tags").isEmpty)
        #expect(try await run.ids("CRMPerson", 1, "address").isEmpty)
        #expect(try await Self.owner(run, 10).isEmpty)
        let address = try await run.reader().object("CRMAddress", identity: [.int(5)])
        #expect(try await address?.relatedObject("person") == nil, "gone or unlinked")
    }

    @Test("a nested record moving to another parent leaves the former one")
    func moving() async throws {
        let run = try StreamedRun(Self.model)
        try await run.run([
            "CRMPerson": #"[{"id": 1, "projects": [{"id": 10, "title": "A"}]}, {"id": 2, "projects": [{"id": 10}]}]"#
        ])
        #expect(try await run.ids("CRMPerson", 1, "projects").isEmpty)
        #expect(try await run.ids("CRMProject", 10, "owner") == [2])
    }

    @Test("the same identity nested and top-level is one object, updated by each record")
    func nestedAndTopLevel() async throws {
        let run = try StreamedRun(Self.model)
        let report = try await run.run([
            "CRMProject": #"{"id": 10, "title": "A"}"#,
            "CRMPerson": #"{"id": 1, "projects": [{"id": 10, "tasks": []}]}"#,
            "CRMProject": #"{"id": 10, "title": "B"}"#,
        ])
        #expect(try await run.reader().objects(of: "CRMProject").fetchAll().count == 1)
        #expect(try await run.object("CRMProject", 10).values["title"] == .string("B"))
        #expect(try await run.ids("CRMProject", 10, "owner") == [1])
        #expect(Self.counts(report, "CRMProject") == [3, 1, 0])
    }

    @Test("an identity met again inside one record is not a new object")
    func identityRepeatedInRecord() async throws {
        let run = try StreamedRun(Self.model)
        // The nested owner repeats the new project's parent: it lacks the required title of a new
        // project, but it is the same object as the project being mapped.
        let report = try await run.run([
            "CRMProject": #"{"id": 10, "title": "A", "owner": {"id": 1, "projects": [{"id": 10}]}}"#
        ])
        #expect(report.recordErrors == [])
        #expect(try await run.object("CRMProject", 10).values["title"] == .string("A"))
        #expect(try await run.ids("CRMPerson", 1, "projects") == [10])
    }

    @Test("a rejected nested record rejects its parent and everything nested in it")
    func rejectedChild() async throws {
        let run = try StreamedRun(Self.model)
        let report = try await run.run([
            "CRMPerson":
                #"[{"id": 1, "projects": [{"id": 10, "title": "A"}, {"id": 11, "tasks": [{"id": 100, "done": "perhaps"}]}]}]"#
        ])
        #expect(
            report.recordErrors == [
                RecordError(
                    entity: "CRMProject", identity: "id=11", attribute: "title", keyPath: "projects.1.title",
                    origin: "people.json", index: 0, message: "required attribute is missing on a new object"),
                RecordError(
                    entity: "CRMTask", identity: "id=100", attribute: "done", keyPath: "projects.1.tasks.0.done",
                    value: #""perhaps""#, origin: "people.json", index: 0, message: #"cannot read "perhaps" as a bool"#),
            ])
        #expect(try await Self.stored(run) == 0)
        #expect(Self.counts(report, "CRMPerson") == [1, 0, 1])
        #expect(Self.counts(report, "CRMProject") == [2, 0, 2])
        #expect(Self.counts(report, "CRMTask") == [1, 0, 1])
        #expect(
            report.recordErrors.last?.description
                == #"people.json record 0 (CRMTask id=100): attribute 'done' (key projects.1.tasks.0.done): cannot read "perhaps" as a bool"#
        )
    }

    @Test(
        "a nested key of the wrong shape is a record error",
        arguments: [
            (
                #""projects": {"id": 10}"#, "projects", #"{"id":10}"#,
                "relationship 'projects' expects an array of objects, found an object"
            ),
            (
                #""address": [{"id": 5}]"#, "address", #"[{"id":5}]"#,
                "relationship 'address' expects an object, found an array"
            ),
        ])
    func wrongShape(member: String, keyPath: String, value: String, message: String) async throws {
        let run = try StreamedRun(Self.model)
        let report = try await run.run(["CRMPerson": #"{"id": 1, \#(member)}"#])
        #expect(
            report.recordErrors == [
                RecordError(
                    entity: "CRMPerson", identity: "id=1", keyPath: keyPath, value: value, origin: "people.json",
                    index: 0, message: message)
            ])
        #expect(try await Self.stored(run) == 0)
    }

    @Test("a nested record without identity is a record error")
    func nestedWithoutIdentity() async throws {
        let run = try StreamedRun(Self.model)
        let report = try await run.run(["CRMPerson": #"{"id": 1, "projects": [{"title": "A"}, 3]}"#])
        #expect(
            report.recordErrors == [
                RecordError(
                    entity: "CRMProject", attribute: "id", keyPath: "projects.0.id", origin: "people.json", index: 0,
                    message: "identity attribute 'id' is missing: the record cannot be merged"),
                RecordError(
                    entity: "CRMProject", keyPath: "projects.1", value: "3", origin: "people.json", index: 0,
                    message: "expected an object, found a number"),
            ])
    }
}

import RMap
import Testing

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

    static func ids(_ objects: [GraphObject]) -> [Value?] { objects.map { $0[attribute: "id"] } }

    @Test("embedded arrays and objects are mapped with the destination's mapping and linked both ways")
    func nestedToManyAndToOne() throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(
            """
            {"id": 1, "name": "Ada",
             "projects": [{"id": 10, "title": "A"}, {"project": {"id": 11, "title": "B"}}],
             "address": {"id": 5, "city": "Paris"}}
            """, entity: "CRMPerson")
        #expect(harness.errors == [])
        let person = try #require(try harness.object("CRMPerson", 1))
        #expect(try Self.ids(person.related("projects")) == [.int(10), .int(11)])
        #expect(try harness.object("CRMProject", 11)?[attribute: "title"] == .string("B"))
        #expect(try harness.object("CRMProject", 10)?.relatedObject("owner") == person)
        let address = try #require(try person.relatedObject("address"))
        #expect(address[attribute: "city"] == .string("Paris"))
        #expect(try address.relatedObject("person") == person)
        #expect(harness.counts("CRMProject") == EntityMappingCounts(fetched: 2, created: 2))
        #expect(harness.counts("CRMAddress") == EntityMappingCounts(fetched: 1, created: 1))
    }

    @Test("records nest within nested records")
    func nestedWithinNested() throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(
            #"{"id": 1, "projects": [{"id": 10, "title": "A", "tasks": [{"id": 100, "done": true}, {"id": 101}]}]}"#,
            entity: "CRMPerson")
        let project = try #require(try harness.object("CRMProject", 10))
        #expect(try Self.ids(project.related("tasks")) == [.int(100), .int(101)])
        #expect(try harness.object("CRMTask", 100)?.relatedObject("project") == project)
        #expect(try harness.object("CRMTask", 100)?[attribute: "done"] == .bool(true))
    }

    @Test("a nested to-one sets its to-many inverse")
    func toOneWithToManyInverse() throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(
            #"[{"id": 10, "title": "A", "owner": {"id": 1, "name": "Ada"}}, {"id": 11, "title": "B", "owner": {"id": 1}}]"#,
            entity: "CRMProject")
        let person = try #require(try harness.object("CRMPerson", 1))
        #expect(person[attribute: "name"] == .string("Ada"))
        #expect(try Self.ids(person.related("projects")) == [.int(10), .int(11)])
        #expect(harness.counts("CRMPerson") == EntityMappingCounts(fetched: 2, created: 1, updated: 1))
    }

    @Test("replace sets the new members and unlinks the old ones; union adds")
    func assignment() throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(
            #"{"id": 1, "projects": [{"id": 10, "title": "A"}, {"id": 11, "title": "B"}], "labels": [{"id": 1}, {"id": 2}]}"#,
            entity: "CRMPerson")
        try harness.map(
            #"{"id": 1, "projects": [{"id": 11}, {"id": 12, "title": "C"}, {"id": 11}], "labels": [{"id": 2}, {"id": 3}]}"#,
            entity: "CRMPerson")
        let person = try #require(try harness.object("CRMPerson", 1))
        #expect(try Self.ids(person.related("projects")) == [.int(11), .int(12)])
        #expect(try harness.object("CRMProject", 10)?.relatedObject("owner") == nil)
        #expect(try harness.object("CRMProject", 11)?[attribute: "title"] == .string("B"))
        #expect(try Self.ids(person.related("tags")) == [.int(1), .int(2), .int(3)])
    }

    @Test("replace and union keep each member once and unlink the old ones, with many members as with few")
    func assignmentOfManyMembers() throws {
        let harness = try MappingHarness(Self.model)
        func record(projects: [Int], labels: [Int]) -> String {
            let projects = projects.map { #"{"id": \#($0), "title": "P\#($0)"}"# }.joined(separator: ",")
            let labels = labels.map { #"{"id": \#($0)}"# }.joined(separator: ",")
            return #"{"id": 1, "projects": [\#(projects)], "labels": [\#(labels)]}"#
        }
        try harness.map(record(projects: Array(1...30), labels: Array(1...20)), entity: "CRMPerson")
        try harness.map(record(projects: Array(20...40) + [25, 20], labels: Array(15...30) + [3]), entity: "CRMPerson")
        let person = try #require(try harness.object("CRMPerson", 1))
        #expect(try Self.ids(person.related("projects")) == (20...40).map { .int(Int64($0)) })
        #expect(try Self.ids(person.related("tags")) == (1...30).map { .int(Int64($0)) })
        for id: Int64 in [1, 19] { #expect(try harness.object("CRMProject", id)?.relatedObject("owner") == nil, "\(id)") }
        for id: Int64 in [20, 40] { #expect(try harness.object("CRMProject", id)?.relatedObject("owner") == person, "\(id)") }
    }

    @Test("null clears a nested relationship; a missing key keeps it")
    func nullAndMissing() throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(
            #"{"id": 1, "projects": [{"id": 10, "title": "A"}], "address": {"id": 5}, "labels": [{"id": 1}]}"#,
            entity: "CRMPerson")
        try harness.map(#"{"id": 1, "name": "Ada"}"#, entity: "CRMPerson")
        let person = try #require(try harness.object("CRMPerson", 1))
        #expect(try person.related("projects").count == 1)
        #expect(try person.relatedObject("address") != nil)
        try harness.map(#"{"id": 1, "projects": null, "address": null, "labels": null}"#, entity: "CRMPerson")
        #expect(try person.related("projects").isEmpty)
        #expect(try person.related("tags").isEmpty)
        #expect(try person.relatedObject("address") == nil)
        #expect(try harness.object("CRMProject", 10)?.relatedObject("owner") == nil)
        #expect(try harness.object("CRMAddress", 5)?.relatedObject("person") == nil)
    }

    @Test("a nested record moving to another parent leaves the former one")
    func moving() throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(
            #"[{"id": 1, "projects": [{"id": 10, "title": "A"}]}, {"id": 2, "projects": [{"id": 10}]}]"#,
            entity: "CRMPerson")
        #expect(try harness.object("CRMPerson", 1)?.related("projects").isEmpty == true)
        #expect(try harness.object("CRMProject", 10)?.relatedObject("owner") == harness.object("CRMPerson", 2))
    }

    @Test("the same identity nested and top-level is one object, updated by each record")
    func nestedAndTopLevel() throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(#"{"id": 10, "title": "A"}"#, entity: "CRMProject")
        try harness.map(#"{"id": 1, "projects": [{"id": 10, "tasks": []}]}"#, entity: "CRMPerson")
        try harness.map(#"{"id": 10, "title": "B"}"#, entity: "CRMProject")
        #expect(try harness.graph.objects(of: "CRMProject").count == 1)
        let project = try #require(try harness.object("CRMProject", 10))
        #expect(project[attribute: "title"] == .string("B"))
        #expect(try project.relatedObject("owner") == harness.object("CRMPerson", 1))
        #expect(harness.counts("CRMProject") == EntityMappingCounts(fetched: 3, created: 1, updated: 2))
    }

    @Test("an identity met again inside one record is not a new object")
    func identityRepeatedInRecord() throws {
        let harness = try MappingHarness(Self.model)
        // The nested owner repeats the new project's parent: it lacks the required title of a new
        // project, but it is the same object as the project being mapped.
        try harness.map(
            #"{"id": 10, "title": "A", "owner": {"id": 1, "projects": [{"id": 10}]}}"#, entity: "CRMProject")
        #expect(harness.errors == [])
        #expect(try harness.object("CRMProject", 10)?[attribute: "title"] == .string("A"))
        #expect(try Self.ids(harness.object("CRMPerson", 1)?.related("projects") ?? []) == [.int(10)])
    }

    @Test("a rejected nested record rejects its parent and everything nested in it")
    func rejectedChild() throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(
            #"[{"id": 1, "projects": [{"id": 10, "title": "A"}, {"id": 11, "tasks": [{"id": 100, "done": "perhaps"}]}]}]"#,
            entity: "CRMPerson", origin: "people.json")
        #expect(
            harness.errors == [
                RecordError(
                    entity: "CRMProject", identity: "id=11", attribute: "title", keyPath: "projects.1.title",
                    origin: "people.json", index: 0, message: "required attribute is missing on a new object"),
                RecordError(
                    entity: "CRMTask", identity: "id=100", attribute: "done", keyPath: "projects.1.tasks.0.done",
                    value: #""perhaps""#, origin: "people.json", index: 0, message: #"cannot read "perhaps" as a bool"#),
            ])
        #expect(harness.graph.count == 0)
        #expect(harness.counts("CRMPerson") == EntityMappingCounts(fetched: 1, rejected: 1))
        #expect(harness.counts("CRMProject") == EntityMappingCounts(fetched: 2, rejected: 2))
        #expect(harness.counts("CRMTask") == EntityMappingCounts(fetched: 1, rejected: 1))
        #expect(
            harness.errors.last?.description
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
    func wrongShape(member: String, keyPath: String, value: String, message: String) throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(#"{"id": 1, \#(member)}"#, entity: "CRMPerson")
        #expect(
            harness.errors == [
                RecordError(
                    entity: "CRMPerson", identity: "id=1", keyPath: keyPath, value: value, origin: "payload.json",
                    index: 0, message: message)
            ])
        #expect(harness.graph.count == 0)
    }

    @Test("a nested record without identity is a record error")
    func nestedWithoutIdentity() throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(#"{"id": 1, "projects": [{"title": "A"}, 3]}"#, entity: "CRMPerson")
        #expect(
            harness.errors == [
                RecordError(
                    entity: "CRMProject", attribute: "id", keyPath: "projects.0.id", origin: "payload.json", index: 0,
                    message: "identity attribute 'id' is missing: the record cannot be merged"),
                RecordError(
                    entity: "CRMProject", keyPath: "projects.1", value: "3", origin: "payload.json", index: 0,
                    message: "expected an object, found a number"),
            ])
    }
}

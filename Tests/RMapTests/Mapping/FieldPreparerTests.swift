import Testing

@testable import RMap

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

    /// A converter and a preparer for `Person` records over `graph`.
    struct Sides {
        let converter: RecordConverter
        let plans: [EntityPlan]
        let preparer: FieldPreparer

        init(_ graph: ObjectGraph) throws {
            let schema = graph.schema
            plans = schema.types.map { EntityPlan(type: $0, schema: schema, transformers: BuiltinTransformers.all) }
            converter = RecordConverter(graph: graph, plans: plans, tally: MappingTally(typeCount: plans.count))
            let person = try #require(schema.type(named: "Person"))
            preparer = try #require(FieldPreparer(type: person, schema: schema, transformers: BuiltinTransformers.all))
        }

        func prepare(_ json: String) throws -> PreparedRecord {
            let item = JSONStreamItem(value: try ModelFixtures.json(json), index: 0, isWholeDocument: false, line: 1)
            return try #require(preparer.prepare(item))
        }

        func convert(_ json: String, prepared: PreparedRecord) throws -> PendingRecord {
            let person = try #require(plans.first { $0.type.name == "Person" })
            let record = try ModelFixtures.json(json)
            return try #require(
                converter.convert(record, as: person, origin: "people.json", index: 0, fill: nil, prepared: prepared))
        }
    }

    @Test("nested objects are converted ahead with their destination's plan; scalars and typed records are left")
    func preparesNestedObjects() throws {
        let sides = try Sides(try ModelFixtures.graph(Self.model))
        let record = try sides.prepare(Self.person)
        #expect(record.fields.values == [.int(1), .string("Ada")])
        #expect(record.nested.count == 4)
        let projects = try #require(record.nested[0])
        #expect(projects.map(\.fields.values) == [[.int(10), .string("A")], [.int(11), nil]])
        #expect(projects[0].nested[0] == nil, "a project's owner key is missing")
        #expect(projects[0].nested[1]?.map(\.fields.values) == [[.int(100), .bool(true)]])
        #expect(record.nested[1] == nil, "scalar tags become records in the mapper")
        #expect(record.nested[2]?.map(\.fields.values) == [[.int(5), .string("Paris")]])
        #expect(record.nested[3] == nil, "a pet's type key picks its entity in the mapper")
    }

    @Test("the mapper takes nested records' attributes as prepared")
    func mapperUsesPrepared() throws {
        let sides = try Sides(try ModelFixtures.graph(Self.model))
        let prepared = try sides.prepare(Self.person.replacingOccurrences(of: "\"A\"", with: "\"prepared\""))
        let pending = try sides.convert(Self.person, prepared: prepared)
        let projects = try #require(pending.nested.first { $0.index == 0 }?.records)
        #expect(projects.map(\.values) == [[.int(10), .string("prepared")], [.int(11), nil]])
        #expect(projects[0].nested.first?.records?.map(\.values) == [[.int(100), .bool(true)]])
        let tags = try #require(pending.nested.first { $0.index == 1 }?.records)
        #expect(tags.map(\.values) == [[.int(7)], [.int(8)]])
    }

    @Test("a nested record that turns out a sub-entity is converted again, its nested records too")
    func subEntityConvertsAgain() throws {
        let harness = try MappingHarness(Self.model)
        try harness.map(#"{"id": 10, "title": "M", "due": "May"}"#, entity: "Milestone")
        let sides = try Sides(harness.graph)
        let prepared = try sides.prepare(
            Self.person.replacingOccurrences(of: "\"A\"", with: "\"prepared\"").replacingOccurrences(
                of: "true", with: "false"))
        let pending = try sides.convert(Self.person, prepared: prepared)
        let projects = try #require(pending.nested.first { $0.index == 0 }?.records)
        #expect(projects[0].plan.type.name == "Milestone")
        #expect(projects[0].values == [.int(10), .string("A"), nil])
        #expect(projects[0].nested.first?.records?.map(\.values) == [[.int(100), .bool(true)]])
    }
}

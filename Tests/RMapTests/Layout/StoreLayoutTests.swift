import RMap
import RMapSQLite
import Testing

@Suite("Store layout (MAPPING.md §5)")
struct StoreLayoutTests {
    @Test("one table per root entity, named by its collection, with STI type and foreign-key columns")
    func tables() throws {
        let layout = StoreLayout(schema: try StoreFixtures.schema())
        #expect(layout.tables.map(\.name) == ["people", "projects"])
        let people = try #require(layout.table(named: "people"))
        #expect(
            people.columns.map(\.name) == [
                "id", "first_name", "address_city", "budget", "admin", "born_on", "seen_at", "score", "tags", "raw",
                "homepage", "level", "type",
            ])
        #expect(
            people.columns.map(\.type) == [
                .int, .string, .string, .decimal, .bool, .date, .datetime, .double,
                .array(.string), .json, .url, .int, .string,
            ])
        #expect(people.identity == [0])
        #expect(people.discriminator == 12)
        let projects = try #require(layout.table(named: "projects"))
        #expect(projects.columns.map(\.name) == ["id", "name", "person_id", "team_member_ids", "owner_id"])
        #expect(projects.discriminator == nil)
        #expect(projects.foreignKeys == [4])
    }

    @Test("a to-many without a to-one inverse is a join table source_element_id / singular_key_id")
    func joinTable() throws {
        let layout = StoreLayout(schema: try StoreFixtures.schema())
        #expect(layout.joinTables.map(\.name) == ["projects_team_members"])
        let join = try #require(layout.joinTables.first)
        #expect(
            join.columns == [
                ColumnLayout(name: "project_id", type: .int), ColumnLayout(name: "team_member_id", type: .int),
            ])
        #expect(join.sourceColumnCount == 1)
    }

    /// People with a nested account of composite identity, and friends joined by foreign key.
    static let accounts = """
        rmap: 1
        entities:
          Account:
            identity: [region, number]
            attributes: { region: string, number: int, name: string }
          Person:
            relationships:
              homeAccount: { to_one: Account, nested: true }
              friends: { to_many: Person, connect: { foreign_key: { friendIds: id } } }
            attributes: { id: int, name: string, friendIds: [int] }
        """

    @Test("nested to-one gets <key>_<identity>; composite identities give one column each")
    func nestedToOneAndCompositeIdentity() throws {
        let layout = StoreLayout(schema: GraphSchema(model: try StoreFixtures.model(Self.accounts)))
        let people = try #require(layout.table(named: "people"))
        #expect(
            people.columns.map(\.name) == ["id", "name", "friend_ids", "home_account_region", "home_account_number"])
        #expect(people.columns.map(\.type) == [.int, .string, .array(.int), .string, .int])
        #expect(layout.table(named: "accounts")?.identity == [0, 1])
        #expect(layout.joinTables.map(\.name) == ["people_friends"])
        #expect(layout.joinTables.first?.columns.map(\.name) == ["person_id", "friend_id"])
    }

    @Test("the STI type value comes from the root's types map")
    func typeValues() async throws {
        let directory = try StoreFixtures.temporaryDirectory()
        try await MappedRun.run(
            StoreFixtures.crm, [("CRMPerson", StoreFixtures.crmPeople)], kind: .memory, directory: directory)
        let people = try StoreKind.memory.open(directory).contents(try StoreFixtures.schema(), "CRMPerson")
        #expect(people["1"]?["type"] == .string("Admin"))
        #expect(people["2"]?["type"] == .string("Person"))
    }

    @Test("a new row holds a composite destination's identity, a column a part; a missing key is null")
    func compositeForeignKeyWritten() async throws {
        let directory = try StoreFixtures.temporaryDirectory()
        let report = try await MappedRun.run(
            Self.accounts,
            [("Person", #"[{"id": 1, "home_account": {"region": "eu", "number": 7}}, {"id": 2, "name": "Bo"}]"#)],
            kind: .memory, directory: directory)
        #expect(report.recordErrors == [])
        let people = try StoreKind.memory.open(directory).contents(try StoreFixtures.schema(Self.accounts), "Person")
        #expect(people["1"]?["home_account_region"] == .string("eu"))
        #expect(people["1"]?["home_account_number"] == .int(7))
        #expect(people["1"]?["name"] == .null)
        #expect(people["2"]?["home_account_region"] == .null)
        #expect(people["2"]?["name"] == .string("Bo"))
    }
}

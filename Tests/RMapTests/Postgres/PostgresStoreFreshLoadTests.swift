import Foundation
import RMap
import Testing

@testable import RMapPostgres

/// A first import copies its rows and links straight into the tables; the result is what
/// staging and merging stores, and later imports merge as before.
@Suite("PostgresStore fresh tables")
struct PostgresStoreFreshLoadTests {
    typealias F = StoreFixtures

    /// Awkward text for COPY's format: separators, escapes, its NULL marker, unicode.
    private static let texts = [
        "tab\there", "line\nbreak", "carriage\rreturn", "back\\slash", "\\N", "", "Åsa 🚀 名前", "\"quoted\"",
    ]

    /// 300 people (every 9th an admin) and 200 projects owned, managed and staffed by them;
    /// `round` 1 changes some names and the even projects' team members, and adds people, as a
    /// later import does.
    private static func graph(_ schema: GraphSchema, round: Int = 0) -> ObjectGraph {
        let graph = ObjectGraph(schema: schema)
        var people: [GraphObject] = []
        for index in 0..<(300 + round * 100) {
            let renamed = round > 0 && index % 4 == 0
            var values: [String: Value] = [
                "id": .int(Int64(index)),
                "firstName": index % 11 == 0 ? .null : .string(texts[index % texts.count] + (renamed ? "!" : "")),
                "city": index % 5 == 0 ? .null : .string("Zürich \(index)"),
                "budget": .decimal(DecimalNumber("\(index).50")!),
                "admin": index % 3 == 0 ? .null : .bool(index % 2 == 0),
                "bornOn": .date(LocalDate(daysSinceEpoch: index * 37 - 9_000)),
                "seenAt": .datetime(Timestamp(milliseconds: Int64(index) * 86_400_123 - 1_000_000_000_000)),
                "score": .double(Double(index) / 7),
                "tags": .array(index % 4 == 0 ? [] : [.string("t\t\(index)"), .string("q\"\\")]),
                "raw": .json(.object(JSONObject([("n", .number("\(index).50")), ("s", .string("x\ny"))]))),
                "homepage": .string("https://example.com/\(index)?q=a%20b"),
            ]
            if index % 9 == 0 { values["level"] = .int(index % 2 == 0 ? Int64.max - Int64(index) : Int64.min) }
            people.append(F.add(graph, index % 9 == 0 ? "CRMAdmin" : "CRMPerson", values))
        }
        for id in 1...200 {
            let members = [id % 7, (id + (id % 2 == 0 ? round : 0)) % 5 + 100, id % 7]
            let project = F.add(
                graph, "CRMProject",
                [
                    "id": .int(Int64(id) * 1_000_000_000_000), "name": .string(texts[id % texts.count]),
                    "personId": .int(Int64(id % 50)), "teamMemberIds": .array(members.map { .int(Int64($0)) }),
                ])
            F.link(project, "teamMembers", members.map { people[$0] })
            F.link(project, "owner", [people[id % 13]])
            F.link(project, "manager", [people[id % 50]])
        }
        return graph
    }

    /// A PostgreSQL store in a fresh schema, fresh tables going straight in (`direct`) or staged and merged.
    private static func open(_ directory: URL, direct: Bool) throws -> (any BackendStore, PostgresBackend) {
        let store = try StoreKind.postgres.open(directory)
        let backend = try #require(store.backend as? PostgresBackend)
        backend.loadsFreshTablesDirectly = direct
        return (store, backend)
    }

    private static func snapshot(_ directory: URL) throws -> [String: [String]] {
        try PostgresSchemas.snapshot(PostgresConnection(url: PostgresSchemas.url(for: directory)))
    }

    @Test func aFirstImportCopiesStraightIntoTheTablesAndStoresWhatStagingStores() throws {
        let schema = try F.schema()
        let copied = try F.temporaryDirectory()
        let (direct, directBackend) = try Self.open(copied, direct: true)
        let report = try direct.write(Self.graph(schema), request: WriteRequest())
        // 300 people and 200 projects in their tables, 400 distinct links of 600 listed.
        #expect(directBackend.freshTables.copiedRows == 300 + 200 + 400)
        #expect(directBackend.stagedRows == 0)

        let merged = try F.temporaryDirectory()
        let (staged, stagedBackend) = try Self.open(merged, direct: false)
        #expect(try staged.write(Self.graph(schema), request: WriteRequest()) == report)
        #expect(stagedBackend.freshTables.copiedRows == 0)
        #expect(stagedBackend.stagedRows == 300 + 200 + 600)

        // Every table, rows as text with their row handles: rows, bases and links alike.
        let stored = try Self.snapshot(copied)
        #expect(stored == (try Self.snapshot(merged)))
        #expect(stored["people"]?.count == 300)
        #expect(stored["_rmap_base_people"]?.isEmpty == true)
        #expect(stored["projects_team_members"]?.count == 400)
        let people = try direct.contents(schema, "CRMPerson")
        #expect(people["1"]?["first_name"] == .string("line\nbreak"))
        #expect(people["0"]?["level"] == .int(Int64.max))
        #expect(people["9"]?["level"] == .int(Int64.min))
        #expect(people["11"]?["first_name"] == .null)
        #expect(people["6"]?["first_name"] == .string("Åsa 🚀 名前"))
    }

    @Test func aReimportMergesIntoTheFilledTablesAsStagingDoes() throws {
        let schema = try F.schema()
        let copied = try F.temporaryDirectory()
        let merged = try F.temporaryDirectory()
        _ = try Self.open(copied, direct: true).0.write(Self.graph(schema), request: WriteRequest())
        _ = try Self.open(merged, direct: false).0.write(Self.graph(schema), request: WriteRequest())

        let (direct, directBackend) = try Self.open(copied, direct: true)
        let report = try direct.write(Self.graph(schema, round: 1), request: WriteRequest())
        // The tables hold rows (the odd projects keep their links): the stored objects are staged and
        // merged; the new ones, which the store holds nothing for, go straight in as in a first import.
        #expect(directBackend.stagedRows > 0)
        #expect(directBackend.freshTables.copiedRows > 0)
        #expect(report.entities["CRMPerson"]?.inserted == 100 - 100 / 9)
        #expect(
            try Self.open(merged, direct: false).0.write(Self.graph(schema, round: 1), request: WriteRequest())
                == report)

        #expect(try Self.snapshot(copied) == (try Self.snapshot(merged)))
        let people = try direct.contents(schema, "CRMPerson")
        #expect(people.count == 400)
        #expect(people["4"]?["first_name"] == .string("\\N!"))
        #expect(people["5"]?["first_name"] == .string(""))
    }

    @Test func aNewJoinTableHasItsKeyBackBeforeLinksAreMergedIntoIt() throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema()
        let graph = ObjectGraph(schema: schema)
        let people = (1...2).map { F.add(graph, "CRMPerson", ["id": .int(Int64($0))]) }
        for id in 1...3 {
            let project = F.add(graph, "CRMProject", ["id": .int(Int64(id)), "teamMemberIds": .array([.int(1)])])
            F.link(project, "teamMembers", [people[0], people[1], people[0]])
        }
        // Below the COPY threshold: merged with ON CONFLICT DO NOTHING, which needs the key (dropped
        // while the table was new); without it the duplicates would stay and the commit's key fail.
        let (store, backend) = try Self.open(directory, direct: true)
        _ = try store.write(graph, request: WriteRequest())
        #expect(backend.freshTables.copiedRows == 0)
        let connection = try PostgresConnection(url: PostgresSchemas.url(for: directory))
        let links = try connection.query(
            "SELECT count(*), count(DISTINCT (project_id, team_member_id)) FROM projects_team_members")
        #expect(links.rows == [["6", "6"]])
        let key = try connection.query(
            "SELECT conname FROM pg_constraint WHERE conrelid = 'projects_team_members'::regclass AND contype = 'p'")
        #expect(key.rows == [["projects_team_members_pkey"]])
    }

    private static let gadgets = """
        rmap: 1
        entities:
          Shelf:
            attributes: { id: int, label: string }
          Gadget:
            attributes: { id: int, serial: uuid, name: string }
        """

    @Test func aValueRejectedMidCopyRollsBackEveryTable() throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema(Self.gadgets)
        func shelves(_ graph: ObjectGraph) {
            for id in 1...100 { F.add(graph, "Shelf", ["id": .int(Int64(id)), "label": .string("shelf \(id)")]) }
        }
        let first = ObjectGraph(schema: schema)
        shelves(first)
        _ = try Self.open(directory, direct: true).0.write(first, request: WriteRequest())
        let before = try Self.snapshot(directory)

        let second = ObjectGraph(schema: schema)
        shelves(second)
        let count = PersistWriter.batchSize + 100
        for id in 0..<count {
            let serial = id == count - 10 ? "not-a-uuid" : "a0eebc99-9c0b-4ef8-bb6d-\(String(format: "%012d", id))"
            F.add(second, "Gadget", ["id": .int(Int64(id)), "serial": .string(serial), "name": .string("g\(id)")])
        }
        let (store, backend) = try Self.open(directory, direct: true)
        let error = try #require(throws: PostgresError.self) { try store.write(second, request: WriteRequest()) }
        #expect(error.operation == .copy)
        #expect(error.sqlState == "22P02")
        #expect(error.message.contains("not-a-uuid"))
        // The first batch went straight into the new table; the second failed; none of it stays.
        #expect(backend.freshTables.copiedRows == PersistWriter.batchSize)
        #expect(try Self.snapshot(directory) == before)
        #expect(before["shelves"]?.count == 100)
        #expect(before["gadgets"] == [])
    }

    private static let devices = """
        rmap: 1
        entities:
          Device:
            attributes: { id: uuid, name: string }
        """

    @Test func identitiesThatPostgresComparesOtherwiseAreStagedAndMerged() throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema(Self.devices)
        let graph = ObjectGraph(schema: schema)
        for id in 0..<100 {
            F.add(graph, "Device", ["id": .string("a0eebc99-9c0b-4ef8-bb6d-\(String(format: "%012d", id))")])
        }
        let (store, backend) = try Self.open(directory, direct: true)
        _ = try store.write(graph, request: WriteRequest())
        #expect(backend.freshTables.copiedRows == 0)
        #expect(backend.stagedRows == 100)
        #expect(try store.contents(schema, "Device").count == 100)
    }
}

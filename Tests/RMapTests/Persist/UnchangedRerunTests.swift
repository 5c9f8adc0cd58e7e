import Foundation
import RMapPostgres
import RMapSQLite
import Testing

@testable import RMap

/// A re-run costs what changed: rows equal to their base and links already stored are left
/// alone, with the same counts, merges and releases as the full three-way merge.
@Suite("Unchanged re-run")
struct UnchangedRerunTests {
    typealias F = StoreFixtures

    /// More people than a staging batch holds (4,096 rows, a person and its project two): the
    /// run's objects span two batches.
    static let count = 2_100

    /// A person's keys in the payload, in order, and their values as JSON (``StoreFixtures/everyType``).
    static let everyType: [(key: String, json: String)] = [
        ("address", #"{"city": ""}"#), ("budget", "1234.50"), ("admin", "false"), ("born_on", #""1985-12-10""#),
        ("seen_at", #""2023-11-14T22:13:20.123Z""#), ("score", "0.1"), ("tags", #"["a", "b \"c\" \\", ""]"#),
        ("raw", #"{"a": 1.50, "b": [true, null, "x"]}"#), ("homepage", #""https://example.com/a?b=1&c=%20""#),
    ]

    /// People 1...count with a value of every type (every third an admin), each owning (nested,
    /// listed) project 1000 + id, managed by its owner, with the owner and the next person as
    /// team; `edit` changes a person's values (JSON text by key).
    static func payloads(
        edit: (_ id: Int64, _ values: inout [String: String]) -> Void = { _, _ in },
        team: (_ id: Int64) -> [Int64] = { [$0, $0 % Int64(count) + 1] },
        listed: (_ id: Int64) -> Bool = { _ in true }
    ) -> [(entity: String, json: String)] {
        var people: [String] = []
        var unlisted: [String] = []
        for id in 1...Int64(count) {
            var values = Dictionary(uniqueKeysWithValues: everyType.map { ($0.key, $0.json) })
            values["first_name"] = #""P\#(id)""#
            edit(id, &values)
            let members = team(id).map(String.init).joined(separator: ", ")
            let project =
                #"{"id": \#(1000 + id), "name": "Project \#(id)", "person_id": \#(id), "team_member_ids": [\#(members)]}"#
            let fields = (["first_name"] + everyType.map(\.key)).map { #""\#($0)": \#(values[$0]!)"# }
            let type = id % 3 == 0 ? #""type": "Admin", "level": -9007199254740993, "# : ""
            // An unlisted project arrives on its own, without an owner.
            let projects = listed(id) ? project : ""
            if !listed(id) { unlisted.append(project) }
            people.append(
                #"{"id": \#(id), \#(type)\#(fields.joined(separator: ", ")), "projects": [\#(projects)]}"#)
        }
        var payloads = [("CRMPerson", "[" + people.joined(separator: ",\n") + "]")]
        if !unlisted.isEmpty { payloads.append(("CRMProject", "[" + unlisted.joined(separator: ",\n") + "]")) }
        return payloads
    }

    /// One run of `payloads` into the store of `kind` in `directory`.
    @discardableResult
    static func run(
        _ kind: StoreKind, _ directory: URL, _ payloads: [(entity: String, json: String)] = payloads()
    ) async throws -> RunReport {
        try await MappedRun.run(F.crm, payloads, kind: kind, directory: directory)
    }

    /// What a run did to `entity`'s objects.
    static func counts(_ report: RunReport, _ entity: String) -> EntityRunCounts {
        report.entities.first { $0.entity == entity } ?? EntityRunCounts(entity: entity)
    }

    /// Counts summed over people and admins.
    static func people(_ report: RunReport) -> EntityRunCounts {
        let (person, admin) = (counts(report, "CRMPerson"), counts(report, "CRMAdmin"))
        var sum = EntityRunCounts(entity: "CRMPerson")
        sum.inserted = person.inserted + admin.inserted
        sum.updated = person.updated + admin.updated
        sum.unchanged = person.unchanged + admin.unchanged
        return sum
    }

    /// What shows that nothing was written: every SQLite row of every table with its `rowid` (a
    /// row deleted and inserted again gets another); every PostgreSQL row with its `xmin` (the
    /// transaction that last wrote it); the contents elsewhere.
    static func footprint(_ kind: StoreKind, _ directory: URL, _ schema: GraphSchema) throws -> String {
        switch kind.description {
        case "sqlite":
            let connection = try SQLiteConnection(path: directory.appendingPathComponent("rmap.sqlite").path)
            let tables = try connection.query(
                "SELECT name, sql LIKE '%WITHOUT ROWID%' FROM sqlite_master WHERE type = 'table' ORDER BY 1")
            return try tables.map { table in
                guard case .text(let name) = table[0] else { return "" }
                let rowid = table[1] == .integer(1) ? "" : "rowid, "
                let rows = try connection.query("SELECT \(rowid)* FROM \"\(name)\" ORDER BY 1")
                return "\(name): \(rows)"
            }.joined(separator: "\n")
        case "postgres":
            let connection = try PostgresConnection(url: PostgresSchemas.url(for: directory))
            let tables = try connection.query(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1")
            return try tables.rows.compactMap(\.[0]).map { name in
                let table = PostgresConnection.quoteIdentifier(name)
                let rows = try connection.query("SELECT xmin::text || ' ' || t::text FROM \(table) AS t ORDER BY 1")
                return name + ": " + rows.rows.map { $0[0] ?? "" }.joined(separator: "; ")
            }.joined(separator: "\n")
        default:
            let store = try kind.open(directory)
            return try ["CRMPerson", "CRMProject"].flatMap { entity in
                try store.contents(schema, entity).sorted { $0.key < $1.key }.map { key, columns in
                    "\(key): \(columns.sorted { $0.key < $1.key })"
                }
            }.joined(separator: "\n")
        }
    }

    @Test("an unchanged re-run counts every object unchanged and writes nothing", arguments: StoreKind.all)
    func unchanged(kind: StoreKind) async throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema()
        let first = try await Self.run(kind, directory)
        #expect(Self.people(first).inserted == Self.count)
        let before = try Self.footprint(kind, directory, schema)

        let again = try await Self.run(kind, directory)
        #expect(Self.people(again).unchanged == Self.count)
        #expect(Self.people(again).inserted == 0)
        #expect(Self.people(again).updated == 0)
        #expect(Self.counts(again, "CRMAdmin").unchanged == Self.count / 3)
        #expect(Self.counts(again, "CRMProject").unchanged == Self.count)
        #expect(Self.counts(again, "CRMProject").updated == 0)
        #expect(try Self.footprint(kind, directory, schema) == before)
    }

    @Test("one changed attribute among many is merged, in either batch", arguments: StoreKind.all)
    func oneChange(kind: StoreKind) async throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema()
        try await Self.run(kind, directory)
        let late = Int64(Self.count - 5)
        let changed = Self.payloads { id, values in
            // A millisecond later, on one person; a name on another, in the second batch.
            if id == 700 { values["seen_at"] = #""2023-11-14T22:13:20.124Z""# }
            if id == late { values["first_name"] = #""Changed""# }
        }
        let report = try await Self.run(kind, directory, changed)
        #expect(Self.people(report).updated == 2)
        #expect(Self.people(report).unchanged == Self.count - 2)
        let stored = try kind.open(directory).contents(schema, "CRMPerson")
        #expect(stored["700"]?["seen_at"] == .datetime(Timestamp(milliseconds: 1_700_000_000_124)))
        #expect(stored["\(late)"]?["first_name"] == .string("Changed"))
        #expect(stored["701"]?["first_name"] == .string("P701"))

        let again = try await Self.run(kind, directory, changed)
        #expect(Self.people(again).unchanged == Self.count)
    }

    @Test("JSON whose keys the store reorders is unchanged on a re-run", arguments: [StoreKind.sqlite, .postgres])
    func reorderedJSON(kind: StoreKind) async throws {
        let directory = try F.temporaryDirectory()
        // PostgreSQL's jsonb reads this back as {"a": 2, "bb": 1}.
        let person = [("CRMPerson", #"[{"id": 1, "raw": {"bb": 1, "a": 2}}]"#)]
        try await Self.run(kind, directory, person)
        let again = try await Self.run(kind, directory, person)
        #expect(Self.counts(again, "CRMPerson").unchanged == 1)
        #expect(Self.counts(again, "CRMPerson").updated == 0)
    }

    @Test("a locally edited row stays pending, takes a remote change and conflicts on its own column")
    func localEdit() async throws {
        for kind in [StoreKind.sqlite, .postgres, .memory] {
            let directory = try F.temporaryDirectory()
            let schema = try F.schema()
            try await Self.run(kind, directory)
            try kind.open(directory).edit(schema, "CRMPerson", id: 5, "address_city", .string("Local"))

            let unchanged = try await Self.run(kind, directory)
            #expect(Self.people(unchanged).unchanged == Self.count, "\(kind)")
            #expect(try kind.open(directory).contents(schema, "CRMPerson")["5"]?["address_city"] == .string("Local"))

            let renamed = Self.payloads { id, values in
                if id == 5 { values["first_name"] = #""Remote""# }
            }
            let merged = try await Self.run(kind, directory, renamed)
            #expect(Self.people(merged).updated == 1, "\(kind)")
            let row = try kind.open(directory).contents(schema, "CRMPerson")["5"]
            #expect(row?["address_city"] == .string("Local"), "\(kind)")
            #expect(row?["first_name"] == .string("Remote"), "\(kind)")

            let moved = Self.payloads { id, values in
                if id == 5 { values["address"] = #"{"city": "Elsewhere"}"# }
            }
            // CRMPerson's policy is `fail`: both sides changed the city.
            await #expect(throws: ConflictError.self) { try await Self.run(kind, directory, moved) }
        }
    }

    @Test("a changed team replaces that project's links only", arguments: [StoreKind.sqlite, .postgres, .memory])
    func changedLinks(kind: StoreKind) async throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema()
        try await Self.run(kind, directory)
        let changed = Self.payloads(team: { $0 == 9 ? [9, 30, 31] : [$0, $0 % Int64(Self.count) + 1] })
        let report = try await Self.run(kind, directory, changed)
        #expect(Self.counts(report, "CRMProject").updated == 1)
        let objects = try kind.open(directory).objects(schema: schema)
        let links = try objects.scanLinks(objects.layout.joinTables[0])
        #expect(links.count == Self.count * 2 + 1)
        #expect(Set(links.filter { $0[0] == .int(1009) }.map { $0[1] }) == [.int(9), .int(30), .int(31)])
        #expect(Set(links.filter { $0[0] == .int(1010) }.map { $0[1] }) == [.int(10), .int(11)])
    }

    @Test(
        "a child its parent no longer lists is released although its own row is unchanged",
        arguments: [StoreKind.sqlite, .postgres, .memory])
    func releasedChild(kind: StoreKind) async throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema()
        try await Self.run(kind, directory)
        let report = try await Self.run(kind, directory, Self.payloads(listed: { $0 != 4 }))
        #expect(Self.counts(report, "CRMProject").updated == 1)
        #expect(Self.counts(report, "CRMProject").unchanged == Self.count - 1)
        let projects = try kind.open(directory).contents(schema, "CRMProject")
        #expect(projects["1004"]?["owner_id"] == .null)
        #expect(projects["1005"]?["owner_id"] == .int(5))
    }
}

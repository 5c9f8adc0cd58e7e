import Foundation
import RMapPostgres
import Testing

@testable import RMap

/// A re-run costs what changed: rows equal to their base and links already stored are left
/// alone (``StoreBackend/matchesBase(_:_:)``, ``StoreBackend/holdsLinks(_:sources:links:)``),
/// with the same counts, merges and releases as the full three-way merge.
@Suite("Unchanged re-run")
struct UnchangedRerunTests {
    typealias F = StoreFixtures

    /// More people than a write batch holds: the run's objects span two batches.
    static let count = PersistWriter.batchSize + 52

    /// People 1...count with a value of every type (every third an admin), each owning (nested,
    /// listed) project 1000 + id, managed by its owner, with the owner and the next person as team.
    static func graph(
        _ schema: GraphSchema, edit: (_ id: Int64, _ values: inout [String: Value]) -> Void = { _, _ in },
        team: (_ id: Int64) -> [Int64] = { [$0, $0 % Int64(count) + 1] },
        listed: (_ id: Int64) -> Bool = { _ in true }
    ) -> ObjectGraph {
        let graph = ObjectGraph(schema: schema)
        var people: [Int64: GraphObject] = [:]
        for id in 1...Int64(count) {
            var values = F.everyType
            values["id"] = .int(id)
            values["firstName"] = .string("P\(id)")
            if id % 3 != 0 { values["level"] = nil }
            edit(id, &values)
            people[id] = F.add(graph, id % 3 == 0 ? "CRMAdmin" : "CRMPerson", values)
        }
        for id in 1...Int64(count) {
            let members = team(id)
            let project = F.add(
                graph, "CRMProject",
                [
                    "id": .int(1000 + id), "name": .string("Project \(id)"), "personId": .int(id),
                    "teamMemberIds": .array(members.map(Value.int)),
                ])
            // An unlisted project arrives on its own, without an owner.
            F.link(people[id]!, "projects", listed(id) ? [project] : [])
            people[id]!.markAssigned(at: people[id]!.type.relationshipIndex("projects")!)
            if listed(id) { F.link(project, "owner", [people[id]!]) }
            F.link(project, "manager", [people[id]!])
            F.link(project, "teamMembers", members.map { people[$0]! })
        }
        return graph
    }

    /// Counts summed over people and admins.
    static func people(_ report: WriteReport) -> EntityWriteCounts {
        let person = report.entities["CRMPerson"] ?? EntityWriteCounts()
        let admin = report.entities["CRMAdmin"] ?? EntityWriteCounts()
        var sum = EntityWriteCounts()
        sum.inserted = person.inserted + admin.inserted
        sum.updated = person.updated + admin.updated
        sum.unchanged = person.unchanged + admin.unchanged
        return sum
    }

    /// What shows that nothing was written: the SQLite file's bytes; every PostgreSQL row with
    /// its `xmin` (the transaction that last wrote it); the contents elsewhere.
    static func footprint(_ kind: StoreKind, _ directory: URL, _ schema: GraphSchema) throws -> String {
        switch kind.description {
        case "sqlite":
            return try Data(contentsOf: directory.appendingPathComponent("rmap.sqlite")).base64EncodedString()
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
    func unchanged(kind: StoreKind) throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema()
        let first = try kind.open(directory).write(Self.graph(schema), request: WriteRequest())
        #expect(Self.people(first).inserted == Self.count)
        let before = try Self.footprint(kind, directory, schema)

        let again = try kind.open(directory).write(Self.graph(schema), request: WriteRequest())
        #expect(Self.people(again).unchanged == Self.count)
        #expect(Self.people(again).inserted == 0)
        #expect(Self.people(again).updated == 0)
        #expect(again.entities["CRMAdmin"]?.unchanged == Self.count / 3)
        #expect(again.entities["CRMProject"]?.unchanged == Self.count)
        #expect(again.entities["CRMProject"]?.updated == 0)
        #expect(try Self.footprint(kind, directory, schema) == before)
    }

    @Test("one changed attribute among many is merged, in either batch", arguments: StoreKind.all)
    func oneChange(kind: StoreKind) throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema()
        _ = try kind.open(directory).write(Self.graph(schema), request: WriteRequest())
        let late = Int64(Self.count - 5)
        let changed = Self.graph(schema) { id, values in
            // A millisecond later, on one person; a name on another, past the first batch.
            if id == 700 { values["seenAt"] = .datetime(Timestamp(milliseconds: 1_700_000_000_124)) }
            if id == late { values["firstName"] = .string("Changed") }
        }
        let report = try kind.open(directory).write(changed, request: WriteRequest())
        #expect(Self.people(report).updated == 2)
        #expect(Self.people(report).unchanged == Self.count - 2)
        let stored = try kind.open(directory).contents(schema, "CRMPerson")
        #expect(stored["700"]?["seen_at"] == .datetime(Timestamp(milliseconds: 1_700_000_000_124)))
        #expect(stored["\(late)"]?["first_name"] == .string("Changed"))
        #expect(stored["701"]?["first_name"] == .string("P701"))

        let again = try kind.open(directory).write(changed, request: WriteRequest())
        #expect(Self.people(again).unchanged == Self.count)
    }

    @Test("only the changed row is read back", arguments: [StoreKind.sqlite, .postgres])
    func readsWhatChanged(kind: StoreKind) throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema()
        _ = try kind.open(directory).write(Self.graph(schema), request: WriteRequest())
        let unchanged = FaultyStore(try kind.open(directory), failing: "none")
        _ = try unchanged.write(Self.graph(schema), request: WriteRequest())
        #expect((unchanged.backend as? FaultyBackend)?.fetched.withLock { $0 } == 0)

        let changed = FaultyStore(try kind.open(directory), failing: "none")
        let graph = Self.graph(schema) { id, values in
            if id == 42 { values["score"] = .double(0.2) }
        }
        #expect(Self.people(try changed.write(graph, request: WriteRequest())).updated == 1)
        #expect((changed.backend as? FaultyBackend)?.fetched.withLock { $0 } == 1)
    }

    @Test("JSON whose keys the store reorders is unchanged on a re-run", arguments: [StoreKind.sqlite, .postgres])
    func reorderedJSON(kind: StoreKind) throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema()
        func graph() -> ObjectGraph {
            let graph = ObjectGraph(schema: schema)
            // PostgreSQL's jsonb reads this back as {"a": 2, "bb": 1}.
            let raw = JSONValue.object(JSONObject([("bb", .number("1")), ("a", .number("2"))]))
            F.add(graph, "CRMPerson", ["id": .int(1), "raw": .json(raw)])
            return graph
        }
        _ = try kind.open(directory).write(graph(), request: WriteRequest())
        let again = try kind.open(directory).write(graph(), request: WriteRequest())
        #expect(again.entities["CRMPerson"]?.unchanged == 1)
        #expect(again.entities["CRMPerson"]?.updated == 0)
    }

    @Test("a locally edited row stays pending, takes a remote change and conflicts on its own column")
    func localEdit() throws {
        for kind in [StoreKind.sqlite, .postgres, .memory] {
            let directory = try F.temporaryDirectory()
            let schema = try F.schema()
            _ = try kind.open(directory).write(Self.graph(schema), request: WriteRequest())
            try kind.open(directory).edit(schema, "CRMPerson", id: 5, "address_city", .string("Local"))

            let unchanged = try kind.open(directory).write(Self.graph(schema), request: WriteRequest())
            #expect(Self.people(unchanged).unchanged == Self.count, "\(kind)")
            #expect(try kind.open(directory).contents(schema, "CRMPerson")["5"]?["address_city"] == .string("Local"))

            let renamed = Self.graph(schema) { id, values in
                if id == 5 { values["firstName"] = .string("Remote") }
            }
            let merged = try kind.open(directory).write(renamed, request: WriteRequest())
            #expect(Self.people(merged).updated == 1, "\(kind)")
            let row = try kind.open(directory).contents(schema, "CRMPerson")["5"]
            #expect(row?["address_city"] == .string("Local"), "\(kind)")
            #expect(row?["first_name"] == .string("Remote"), "\(kind)")

            let moved = Self.graph(schema) { id, values in
                if id == 5 { values["city"] = .string("Elsewhere") }
            }
            // CRMPerson's policy is `fail`: both sides changed the city.
            #expect(throws: ConflictError.self) { try kind.open(directory).write(moved, request: WriteRequest()) }
        }
    }

    @Test("a changed team replaces that project's links only", arguments: [StoreKind.sqlite, .postgres, .memory])
    func changedLinks(kind: StoreKind) throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema()
        _ = try kind.open(directory).write(Self.graph(schema), request: WriteRequest())
        let graph = Self.graph(schema, team: { $0 == 9 ? [9, 30, 31] : [$0, $0 % Int64(Self.count) + 1] })
        let report = try kind.open(directory).write(graph, request: WriteRequest())
        #expect(report.entities["CRMProject"]?.updated == 1)
        let objects = try kind.open(directory).objects(schema: schema)
        let links = try objects.backend.scanLinks(objects.layout.joinTables[0])
        #expect(links.count == Self.count * 2 + 1)
        #expect(Set(links.filter { $0[0] == .int(1009) }.map { $0[1] }) == [.int(9), .int(30), .int(31)])
        #expect(Set(links.filter { $0[0] == .int(1010) }.map { $0[1] }) == [.int(10), .int(11)])
    }

    @Test(
        "a child its parent no longer lists is released although its own row is unchanged",
        arguments: [StoreKind.sqlite, .postgres, .memory])
    func releasedChild(kind: StoreKind) throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema()
        _ = try kind.open(directory).write(Self.graph(schema), request: WriteRequest())
        let graph = Self.graph(schema, listed: { $0 != 4 })
        let report = try kind.open(directory).write(graph, request: WriteRequest())
        #expect(report.entities["CRMProject"]?.updated == 1)
        #expect(report.entities["CRMProject"]?.unchanged == Self.count - 1)
        let projects = try kind.open(directory).contents(schema, "CRMProject")
        #expect(projects["1004"]?["owner_id"] == .null)
        #expect(projects["1005"]?["owner_id"] == .int(5))
    }
}

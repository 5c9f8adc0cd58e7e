import Foundation
import RMapSQLite
import Testing

@testable import RMap

/// A write puts each table's rows, bases and links in order of identity, whatever order the
/// payloads listed them in: inserts then land beside each other in SQLite's B-trees.
@Suite("Persist: rows in order of identity")
struct IdentityOrderTests {
    typealias F = StoreFixtures

    /// People 1...count added in a scrambled order of id (a fixed permutation), each owning one
    /// project (id 100000 + the person's) whose team is the person and the next one.
    private func scrambledGraph(_ schema: GraphSchema, count: Int) -> ObjectGraph {
        let graph = ObjectGraph(schema: schema)
        var people: [Int: GraphObject] = [:]
        for step in 0..<count {
            let id = (step * 7919) % count + 1
            people[id] = F.add(graph, "CRMPerson", ["id": .int(Int64(id)), "firstName": .string("P\(id)")])
        }
        for id in people.keys.shuffled() {
            let person = people[id]!
            let team = [id, id % count + 1]
            let project = F.add(
                graph, "CRMProject",
                [
                    "id": .int(Int64(100_000 + id)), "name": .string("Q\(id)"),
                    "teamMemberIds": .array(team.map { .int(Int64($0)) }),
                ])
            F.link(person, "projects", [project])
            F.link(project, "owner", [person])
            F.link(project, "teamMembers", team.map { people[$0]! })
        }
        return graph
    }

    @Test("SQLite receives rows and links in order of identity, across batches: its rowids follow the ids")
    func integerIdentities() throws {
        let path = try F.temporaryDirectory().appendingPathComponent("rmap.sqlite").path
        let schema = try F.schema()
        let count = PersistWriter.batchSize * 2 + 7
        let graph = scrambledGraph(schema, count: count)
        let store = FaultyStore(try SQLiteStore(path: path), failing: "none")
        let report = try store.write(graph, request: WriteRequest())
        #expect(report.entities["CRMPerson"]?.inserted == count)

        let connection = try SQLiteConnection(path: path)
        let people = try connection.query("SELECT id FROM people ORDER BY rowid")
        #expect(people == (1...count).map { [.integer(Int64($0))] })
        let projects = try connection.query("SELECT id FROM projects ORDER BY rowid")
        #expect(projects == (1...count).map { [.integer(Int64(100_000 + $0))] })

        let backend = try #require(store.backend as? FaultyBackend)
        let layout = StoreLayout(schema: schema)
        let id = try #require(layout.table(of: schema.type(named: "CRMPerson")!).columnIndex("id"))
        #expect(
            backend.writtenRows.withLock { $0["people"] ?? [] }.map { $0[id] } == (1...count).map { .int(Int64($0)) })
        let links = backend.writtenLinks.withLock { $0 }
        #expect(!links.isEmpty)
        for (join, rows) in links {
            let sources = rows.map { $0[0] }
            #expect(sources.count == 2 * count, "\(join)")
            #expect(
                zip(sources, sources.dropFirst()).allSatisfy { IdentityOrder.compare($0, $1) != .descending }, "\(join)"
            )
        }
    }

    @Test("string identities are written in the order of their UTF-8 bytes, SQLite's own")
    func stringIdentities() throws {
        let yaml = """
            rmap: 1
            entities:
              Tag:
                identity: slug
                attributes:
                  slug: string
                  label: string
            """
        let path = try F.temporaryDirectory().appendingPathComponent("rmap.sqlite").path
        let schema = try F.schema(yaml)
        let graph = ObjectGraph(schema: schema)
        for slug in ["b", "é", "a", "10", "Z", "aa", "9", "ab"] {
            F.add(graph, "Tag", ["slug": .string(slug), "label": .string(slug.uppercased())])
        }
        _ = try SQLiteStore(path: path).write(graph, request: WriteRequest())

        let table = StoreLayout(schema: schema).table(of: schema.type(named: "Tag")!).name
        let connection = try SQLiteConnection(path: path)
        let written = try connection.query("SELECT slug FROM \"\(table)\" ORDER BY rowid")
        #expect(written == ["10", "9", "Z", "a", "aa", "ab", "b", "é"].map { [.text($0)] })
        #expect(try connection.query("SELECT slug FROM \"\(table)\" ORDER BY slug") == written)
    }

    @Test("identities compare value by value: null, then numbers, then strings by their bytes")
    func comparison() {
        let ascending: [[Value]] = [
            [.null], [.bool(false)], [.int(1)], [.double(1.5)], [.int(2), .string("a")], [.int(2), .string("b")],
            [.int(10)], [.string("Z")], [.string("a")], [.string("é")],
        ]
        for (left, right) in zip(ascending, ascending.dropFirst()) {
            #expect(IdentityOrder.compare(left, right) == .ascending, "\(left) < \(right)")
            #expect(IdentityOrder.compare(right, left) == .descending, "\(right) > \(left)")
        }
        #expect(IdentityOrder.compare([.string("x")], [.string("x")]) == .same)
        #expect(IdentityOrder.compare([.date(LocalDate(year: 2024, month: 1, day: 2)!)], [.json(.null)]) == .same)
    }

    @Test("rows already in order of identity keep their order; scrambled ones are sorted", arguments: [false, true])
    func rowsInOrder(scrambled: Bool) throws {
        let schema = try F.schema()
        let graph = ObjectGraph(schema: schema)
        let ids = scrambled ? [5, 3, 9, 1, 7] : [1, 3, 5, 7, 9]
        for id in ids { F.add(graph, "CRMPerson", ["id": .int(Int64(id))]) }
        let person = try #require(schema.type(named: "CRMPerson"))
        let rows = IdentityOrder.rows(of: person, in: graph)
        #expect(
            rows.map { GraphObject(graph: graph, root: person.index, row: Int($0)).identity.values }
                == [1, 3, 5, 7, 9].map { [.int(Int64($0))] })
        #expect(rows == (scrambled ? [3, 1, 0, 4, 2] : [0, 1, 2, 3, 4]))
    }
}

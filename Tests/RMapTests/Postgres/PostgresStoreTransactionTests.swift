import Foundation
import RMap
import RMapPostgres
import Testing

/// A failed run leaves PostgreSQL exactly as before: rows, bases, links and schema.
@Suite("PostgresStore transactions")
struct PostgresStoreTransactionTests {
    typealias F = StoreFixtures

    private static let devices = """
        rmap: 1
        entities:
          Device:
            attributes:
              id: uuid
              name: string
              parts: [string]
        """

    private func device(_ graph: ObjectGraph, _ id: String, _ name: String) {
        F.add(graph, "Device", ["id": .string(id), "name": .string(name), "parts": .array([.string(name)])])
    }

    @Test func aValueTheColumnRejectsFailsTheRunAndChangesNoTable() throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema(Self.devices)
        let good = "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"
        let first = ObjectGraph(schema: schema)
        device(first, good, "router")
        _ = try StoreKind.postgres.open(directory).write(first, request: WriteRequest())
        let connection = try PostgresConnection(url: PostgresSchemas.url(for: directory))
        let before = try PostgresSchemas.snapshot(connection)

        let second = ObjectGraph(schema: schema)
        device(second, good, "switch")
        device(second, "not-a-uuid", "broken")
        let error = try #require(throws: PostgresError.self) {
            try StoreKind.postgres.open(directory).write(second, request: WriteRequest())
        }
        #expect(error.sqlState == "22P02")
        #expect(error.message.contains("not-a-uuid"))
        #expect(error.description.contains("rmap_test"))
        #expect(try PostgresSchemas.snapshot(connection) == before)
        #expect(before["devices"]?.count == 1)
    }

    @Test func aFailedFirstRunCreatesNoTable() throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema(Self.devices)
        let graph = ObjectGraph(schema: schema)
        device(graph, "not-a-uuid", "broken")
        #expect(throws: PostgresError.self) {
            try StoreKind.postgres.open(directory).write(graph, request: WriteRequest())
        }
        let connection = try PostgresConnection(url: PostgresSchemas.url(for: directory))
        #expect(try PostgresSchemas.snapshot(connection).isEmpty)
    }

    @Test func aConflictFailsTheRunAndChangesNoTable() throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema(policy: "fail")
        _ = try StoreKind.postgres.open(directory).write(F.crmGraph(schema), request: WriteRequest())
        try StoreKind.postgres.open(directory).edit(schema, "CRMProject", id: 10, "name", .string("Local"))
        let connection = try PostgresConnection(url: PostgresSchemas.url(for: directory))
        let before = try PostgresSchemas.snapshot(connection)

        let graph = F.crmGraph(schema, annName: .string("Annie"))
        try graph.object(of: "CRMProject", identity: [.int(10)])?.set("name", to: .string("Remote"))
        F.add(graph, "CRMPerson", ["id": .int(3), "firstName": .string("Cy")])
        #expect(throws: ConflictError.self) {
            try StoreKind.postgres.open(directory).write(graph, request: WriteRequest(completeEntities: ["CRMProject"]))
        }
        #expect(try PostgresSchemas.snapshot(connection) == before)
        #expect(
            Set(before.keys) == [
                "people", "_rmap_base_people", "_rmap_new_people", "projects", "_rmap_base_projects",
                "_rmap_new_projects", "projects_team_members",
            ])
    }

    @Test func aDryRunLeavesNoTrace() throws {
        let directory = try F.temporaryDirectory()
        let store = try StoreKind.postgres.open(directory)
        let report = try store.write(F.crmGraph(try F.schema()), request: WriteRequest(dryRun: true))
        #expect(report.entities["CRMProject"]?.inserted == 1)
        #expect(try PostgresSchemas.snapshot(PostgresConnection(url: PostgresSchemas.url(for: directory))).isEmpty)
    }
}

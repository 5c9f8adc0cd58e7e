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

    /// Devices `(id, name)` as a payload, each with its name as its one part.
    private func devices(_ devices: [(id: String, name: String)]) -> [(entity: String, json: String)] {
        let records = devices.map { #"{"id": "\#($0.id)", "name": "\#($0.name)", "parts": ["\#($0.name)"]}"# }
        return [("Device", "[" + records.joined(separator: ", ") + "]")]
    }

    @Test func aValueTheColumnCannotHoldIsARejectedRecordAndTheOthersAreStored() async throws {
        let directory = try F.temporaryDirectory()
        let good = "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"
        try await MappedRun.run(Self.devices, devices([(good, "router")]), kind: .postgres, directory: directory)

        let report = try await MappedRun.run(
            Self.devices, devices([(good, "switch"), ("not-a-uuid", "broken")]), kind: .postgres, directory: directory)
        #expect(
            report.recordErrors.map(\.description) == [
                #"Device.json record 1 (Device): attribute 'id' (key id): "not-a-uuid" is not a uuid"#
            ])
        let connection = try PostgresConnection(url: PostgresSchemas.url(for: directory))
        #expect(try connection.query("SELECT id::text, name FROM devices").rows == [[good, "switch"]])
    }

    @Test func aFailedFirstRunCreatesNoTable() async throws {
        let directory = try F.temporaryDirectory()
        var strict = RunOptions()
        strict.strict = true
        await #expect(throws: StrictFailure.self) {
            try await MappedRun.run(
                Self.devices, devices([("not-a-uuid", "broken")]), kind: .postgres, directory: directory,
                options: strict)
        }
        let connection = try PostgresConnection(url: PostgresSchemas.url(for: directory))
        #expect(try PostgresSchemas.snapshot(connection).isEmpty)
    }

    @Test func aConflictFailsTheRunAndChangesNoTable() async throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema(policy: "fail")
        try await F.runCRM(.postgres, directory)
        try StoreKind.postgres.open(directory).edit(schema, "CRMProject", id: 10, "name", .string("Local"))
        let connection = try PostgresConnection(url: PostgresSchemas.url(for: directory))
        let before = try PostgresSchemas.snapshot(connection)

        let people = F.crmPeople(ann: "Annie", project: "Remote").replacingOccurrences(
            of: #"{"id": 2, "first_name": "Bob"}"#,
            with: #"{"id": 2, "first_name": "Bob"}, {"id": 3, "first_name": "Cy"}"#)
        await #expect(throws: ConflictError.self) {
            try await MappedRun.run(
                F.crm, [("CRMPerson", people), ("CRMProject", "[]")], kind: .postgres, directory: directory)
        }
        #expect(try PostgresSchemas.snapshot(connection) == before)
        #expect(
            Set(before.keys) == [
                "people", "_rmap_base_people", "_rmap_new_people", "projects", "_rmap_base_projects",
                "_rmap_new_projects", "projects_team_members",
            ])
    }

    @Test func aDryRunLeavesNoTrace() async throws {
        let directory = try F.temporaryDirectory()
        var options = RunOptions()
        options.dryRun = true
        let report = try await F.runCRM(.postgres, directory, options: options)
        #expect(report.entities.first { $0.entity == "CRMProject" }?.inserted == 1)
        #expect(try PostgresSchemas.snapshot(PostgresConnection(url: PostgresSchemas.url(for: directory))).isEmpty)
    }
}

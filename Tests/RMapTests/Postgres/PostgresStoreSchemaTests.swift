import Foundation
import RMap
import RMapPostgres
import Testing

/// The tables the `postgres` store creates (MAPPING.md §5), read back from the server's catalog.
@Suite("PostgresStore schema")
struct PostgresStoreSchemaTests {
    typealias F = StoreFixtures

    /// `table.column` -> `data_type` (`NOT NULL` appended when the column is not nullable).
    private func columns(_ connection: PostgresConnection) throws -> [String: String] {
        let result = try connection.query(
            "SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns "
                + "WHERE table_schema = current_schema()")
        var columns: [String: String] = [:]
        for row in result.rows {
            columns["\(row[0]!).\(row[1]!)"] = row[2]! + (row[3] == "NO" ? " NOT NULL" : "")
        }
        return columns
    }

    @Test func columnTypesFollowTheMappingTypes() async throws {
        let directory = try F.temporaryDirectory()
        try await F.runCRM(.postgres, directory)
        let connection = try PostgresConnection(url: PostgresSchemas.url(for: directory))
        let columns = try columns(connection)
        let people: [String: String] = [
            "_rmap_rowid": "bigint NOT NULL", "id": "bigint", "first_name": "text", "address_city": "text",
            "budget": "numeric", "admin": "boolean", "born_on": "date", "seen_at": "timestamp with time zone",
            "score": "double precision", "tags": "jsonb", "raw": "jsonb", "homepage": "text", "level": "bigint",
            "type": "text",
        ]
        #expect(
            columns.filter { $0.key.hasPrefix("people.") }
                == Dictionary(uniqueKeysWithValues: people.map { ("people.\($0)", $1) }))
        var base = people.filter { $0.key != "_rmap_rowid" }
        base["id"] = "bigint NOT NULL"
        #expect(
            columns.filter { $0.key.hasPrefix("_rmap_base_people.") }
                == Dictionary(uniqueKeysWithValues: base.map { ("_rmap_base_people.\($0)", $1) }))
        #expect(columns["projects.owner_id"] == "bigint")
        #expect(columns["projects.team_member_ids"] == "jsonb")
        #expect(columns["projects_team_members.project_id"] == "bigint NOT NULL")
        #expect(columns["projects_team_members.team_member_id"] == "bigint NOT NULL")
    }

    @Test func theRowHandleIsAnIdentityTakenAThousandAtATime() async throws {
        let directory = try F.temporaryDirectory()
        try await F.runCRM(.postgres, directory)
        let connection = try PostgresConnection(url: PostgresSchemas.url(for: directory))
        let column = try connection.query(
            "SELECT is_identity, identity_generation FROM information_schema.columns "
                + "WHERE table_schema = current_schema() AND table_name = 'people' AND column_name = '_rmap_rowid'")
        #expect(column.rows == [["YES", "BY DEFAULT"]])
        let sequence = try connection.query(
            "SELECT cache_size FROM pg_sequences WHERE schemaname || '.' || sequencename = "
                + "pg_get_serial_sequence(current_schema() || '.people', '_rmap_rowid')")
        #expect(sequence.rows == [["1000"]])
        // In insertion order: the CRM fixture's people come in identity order.
        let handles = try connection.query("SELECT id FROM people ORDER BY _rmap_rowid")
        #expect(handles.rows == [["1"], ["2"]])
    }

    /// The indexes of the CRM fixture's projects and their join table, as every path leaves them.
    static let projectIndexes = [
        "projects": ["CREATE INDEX index_projects_on_owner_id (owner_id)", "CREATE UNIQUE INDEX projects_id_key (id)"],
        "projects_team_members": [
            "CREATE INDEX index_projects_team_members_on_team_member_id (team_member_id)",
            "CREATE UNIQUE INDEX projects_team_members_pkey (project_id, team_member_id)",
        ],
    ]

    @Test func identityIsAUniqueKeyAndForeignKeysAreIndexed() async throws {
        let directory = try F.temporaryDirectory()
        try await F.runCRM(.postgres, directory)
        let connection = try PostgresConnection(url: PostgresSchemas.url(for: directory))
        #expect(try PostgresSchemas.indexes(connection, "people") == ["CREATE UNIQUE INDEX people_id_key (id)"])
        #expect(
            try PostgresSchemas.indexes(connection, "_rmap_base_people") == [
                "CREATE UNIQUE INDEX _rmap_base_people_pkey (id)"
            ])
        for (table, indexes) in Self.projectIndexes {
            #expect(try PostgresSchemas.indexes(connection, table) == indexes)
        }
        let links = try connection.query("SELECT project_id, team_member_id FROM projects_team_members ORDER BY 2")
        #expect(links.rows == [["10", "1"], ["10", "2"]])
        let types = try connection.query("SELECT id, type FROM people ORDER BY id")
        #expect(types.rows == [["1", "Admin"], ["2", "Person"]])
    }

    @Test func uuidAndCompositeIdentitiesUseTheirOwnTypes() async throws {
        let yaml = """
            rmap: 1
            entities:
              Device:
                identity: [vendor, serial]
                attributes:
                  vendor: uuid
                  serial: string
                  seenAt: datetime
            """
        let schema = try F.schema(yaml)
        let directory = try F.temporaryDirectory()
        let vendor = "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"
        let sightings = [
            ("X1", "1970-01-01T00:00:01Z"), ("X1", "1970-01-01T00:00:02Z"), ("X2", "1970-01-01T00:00:03Z"),
        ]
        for (serial, seen) in sightings {
            let device = #"[{"vendor": "\#(vendor)", "serial": "\#(serial)", "seen_at": "\#(seen)"}]"#
            try await MappedRun.run(yaml, [("Device", device)], kind: .postgres, directory: directory)
        }
        let connection = try PostgresConnection(url: PostgresSchemas.url(for: directory))
        #expect(try columns(connection)["devices.vendor"] == "uuid")
        #expect(
            try PostgresSchemas.indexes(connection, "devices") == [
                "CREATE UNIQUE INDEX devices_vendor_serial_key (vendor, serial)"
            ])
        let rows = try connection.query("SELECT vendor, serial, seen_at FROM devices ORDER BY serial").rows
        #expect(rows == [[vendor, "X1", "1970-01-01 00:00:02+00"], [vendor, "X2", "1970-01-01 00:00:03+00"]])
        let stored = try StoreKind.postgres.open(directory).contents(schema, "Device")
        #expect(stored["\(vendor)/X1"]?["seen_at"] == .datetime(Timestamp(milliseconds: 2_000)))
    }

    @Test func aGrownMappingAddsColumnsToTheTableAndItsBase() async throws {
        let directory = try F.temporaryDirectory()
        try await F.runCRM(.postgres, directory)
        let grown = F.crm.replacingOccurrences(
            of: "      name: string\n", with: "      name: string\n      startsAt: datetime\n")
        try await F.runCRM(.postgres, directory, yaml: grown)
        let columns = try columns(PostgresConnection(url: PostgresSchemas.url(for: directory)))
        #expect(columns["projects.starts_at"] == "timestamp with time zone")
        #expect(columns["_rmap_base_projects.starts_at"] == "timestamp with time zone")
    }
}

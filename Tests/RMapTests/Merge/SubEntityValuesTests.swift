import Testing

@testable import RMap

/// A record that does not say its type carries its sub-entities' attributes into the store's
/// merge, which writes them only for objects that are such a sub-entity (``RowEntities``), in
/// SQLite and PostgreSQL.
@Suite("Sub-entity values of untyped records")
struct SubEntityValuesTests {
    static let kinds: [StoreKind] = [.sqlite] + [.postgres]

    @Test("an admin's level from an untyped record is stored; a plain person's is not", arguments: kinds)
    func untyped(kind: StoreKind) async throws {
        let run = try StreamedRun(PolymorphismTests.model, kind: kind)
        try await run.run([
            "CRMPerson": #"[{"id": 1, "type": "Admin", "level": 2}, {"id": 2, "name": "Bo", "level": 7}]"#,
            "CRMPerson": #"{"id": 1, "level": 4}"#,
        ])
        #expect(try await run.object("CRMPerson", 1).values["level"] == .int(4))
        #expect(try await run.object("CRMPerson", 2).entity == "CRMPerson")
        try await run.run(["CRMPerson": #"[{"id": 1, "level": 5}, {"id": 2, "type": "Admin"}]"#])
        let admin = try await run.object("CRMPerson", 1)
        #expect(admin.entity == "CRMAdmin")
        #expect(admin.values["level"] == .int(5))
        let retyped = try await run.object("CRMPerson", 2)
        #expect(retyped.entity == "CRMAdmin")
        #expect(retyped.values["level"] == .null)
        #expect(retyped.values["name"] == .string("Bo"))
    }
}

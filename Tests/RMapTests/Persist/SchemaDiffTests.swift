import Foundation
import Testing

@testable import RMap

/// The schema diff in core (what tables and columns a store lacks for a layout), on its own
/// and through each SQL engine, which only reports what exists and spells the changes.
@Suite("Schema diff")
struct SchemaDiffTests {
    typealias F = StoreFixtures

    /// People and projects, a project's owner held by a foreign key and its members by a join table.
    static let before = """
        rmap: 1
        entities:
          Person:
            attributes:
              id: int
              name: string
            relationships:
              projects: { to_many: Project, inverse: owner, nested: true }
          Project:
            attributes:
              id: int
              title: string
              memberIds: [int]
            relationships:
              owner: { to_one: Person }
              members: { to_many: Person, connect: { foreign_key: { memberIds: id } } }
        """

    /// The same model a release later: a person has an email, a project a lead.
    static let after = before.replacingOccurrences(
        of: "      name: string\n", with: "      name: string\n      email: string\n"
    ).replacingOccurrences(
        of: "      projects: { to_many: Project, inverse: owner, nested: true }\n",
        with: "      projects: { to_many: Project, inverse: owner, nested: true }\n"
            + "      led: { to_many: Project, inverse: lead, nested: true }\n"
    ).replacingOccurrences(
        of: "      owner: { to_one: Person }\n",
        with: "      owner: { to_one: Person }\n      lead: { to_one: Person }\n")

    private func layout(_ yaml: String) throws -> StoreLayout {
        StoreLayout(schema: try F.schema(yaml))
    }

    /// The columns each table of `layout` would have once created.
    private func existing(_ layout: StoreLayout) -> [String: Set<String>] {
        var existing: [String: Set<String>] = [:]
        for table in layout.tables {
            existing[table.name] = Set(table.columns.map(\.name))
            existing[table.baseName] = Set(table.columns.map(\.name))
        }
        for join in layout.joinTables { existing[join.name] = Set(join.columns.map(\.name)) }
        return existing
    }

    @Test func anEmptyStoreGetsEveryTableWithItsBaseAndIndexes() throws {
        let layout = try layout(Self.before)
        let people = try #require(layout.table(named: "people"))
        let projects = try #require(layout.table(named: "projects"))
        let join = try #require(layout.joinTables.first)
        #expect(
            SchemaDiff(layout, existing: [:]).changes == [
                .createTable(people), .createBase(people), .createTable(projects), .createBase(projects),
                .createIndex(table: "projects", column: "owner_id"), .createJoin(join),
            ])
        #expect(
            SchemaDiff.tableNames(layout) == [
                "people", "_rmap_base_people", "projects", "_rmap_base_projects", join.name,
            ])
    }

    @Test func tablesThatHoldTheLayoutNeedNothing() throws {
        let layout = try layout(Self.before)
        #expect(SchemaDiff(layout, existing: existing(layout)).isEmpty)
        // Columns the layout no longer names stay, and need nothing either.
        #expect(SchemaDiff(layout, existing: existing(try self.layout(Self.after))).isEmpty)
    }

    @Test func aNewerLayoutAddsColumnsToTablesAndBasesAndIndexesNewForeignKeys() throws {
        let after = try layout(Self.after)
        let people = try #require(after.table(named: "people"))
        let projects = try #require(after.table(named: "projects"))
        let email = try #require(people.columnIndex("email").map { people.columns[$0] })
        let lead = try #require(projects.columnIndex("lead_id").map { projects.columns[$0] })
        #expect(
            SchemaDiff(after, existing: existing(try layout(Self.before))).changes == [
                .addColumn(table: "people", email), .addColumn(table: "_rmap_base_people", email),
                .addColumn(table: "projects", lead), .addColumn(table: "_rmap_base_projects", lead),
                .createIndex(table: "projects", column: "lead_id"),
            ])
    }

    @Test func aMissingBaseOrJoinColumnIsAddedAlone() throws {
        let layout = try layout(Self.before)
        let people = try #require(layout.table(named: "people"))
        let join = try #require(layout.joinTables.first)
        var existing = existing(layout)
        existing[people.baseName] = nil
        existing[join.name]?.remove(join.columns[0].name)
        #expect(
            SchemaDiff(layout, existing: existing).changes == [
                .createBase(people), .addColumn(table: join.name, join.columns[0]),
            ])
    }

    // MARK: - The same cases on each SQL engine

    static let engines: [StoreKind] = [.sqlite, .postgres]

    /// Every row of `table`, as stored.
    private func rows(_ table: TableLayout, named name: String? = nil, on engine: any SQLEngine) throws -> [[Value]] {
        let q = engine.dialect.quote
        return try engine.rows(
            "SELECT \(table.columns.map { q($0.name) }.joined(separator: ", ")) FROM \(q(name ?? table.name)) "
                + "ORDER BY 1",
            types: table.columns.map(\.type))
    }

    @Test(arguments: engines)
    func anEngineCreatesTheSchemaOnceAndThenHoldsIt(_ kind: StoreKind) throws {
        let engine = try kind.open(try F.temporaryDirectory()).engine()
        let layout = try layout(Self.before)
        let people = try #require(layout.table(named: "people"))
        #expect(try StoreSchema.holds(layout, on: engine) == false)
        try engine.transaction { try StoreSchema.ensure(layout, on: engine) }
        #expect(try StoreSchema.holds(layout, on: engine))
        // Making sure again changes nothing: the rows written stay.
        try engine.transaction {
            try StoreSchema.ensure(layout, on: engine)
            try StoredTable(table: people, engine: engine).upsert([.int(1), .string("Ada")])
        }
        try engine.transaction { try StoreSchema.ensure(layout, on: engine) }
        #expect(try rows(people, on: engine) == [[.int(1), .string("Ada")]])
    }

    @Test(arguments: engines)
    func anEngineAddsWhatANewerLayoutNeedsAndKeepsTheRows(_ kind: StoreKind) throws {
        let directory = try F.temporaryDirectory()
        let before = try layout(Self.before)
        let old = try kind.open(directory).engine()
        try old.transaction {
            try StoreSchema.ensure(before, on: old)
            let people = StoredTable(table: try #require(before.table(named: "people")), engine: old)
            try people.upsert([.int(1), .string("Ada")])
        }
        let after = try layout(Self.after)
        let engine = try kind.open(directory).engine()
        #expect(try StoreSchema.holds(after, on: engine) == false)
        let people = try #require(after.table(named: "people"))
        let stored = try engine.transaction {
            try StoreSchema.ensure(after, on: engine)
            let table = StoredTable(table: people, engine: engine)
            try table.upsert([.int(2), .string("Alan"), .string("alan@example.org")])
            try table.keepBase([.int(2), .string("Alan"), .string("alan@example.org")])
            return try rows(people, on: engine)
        }
        #expect(
            stored == [[.int(1), .string("Ada"), .null], [.int(2), .string("Alan"), .string("alan@example.org")]])
        #expect(try StoreSchema.holds(after, on: engine))
        #expect(try StoreSchema.holds(before, on: engine))
        // Both engines keep base rows for local changes alone: Ada, written by rmap without one, is her own base.
        let bases = try rows(people, named: people.baseName, on: engine)
        #expect(bases == [[.int(2), .string("Alan"), .string("alan@example.org")]])
        #expect(try engine.count("SELECT count(*) FROM \(engine.dialect.quote(people.insertedName))") == 0)
    }
}

import Foundation
import RMap
import Testing

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
        of: "      owner: { to_one: Person }\n", with: "      owner: { to_one: Person }\n      lead: { to_one: Person }\n")

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
        #expect(SchemaDiff.tableNames(layout) == ["people", "_rmap_base_people", "projects", "_rmap_base_projects", join.name])
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

    @Test(arguments: engines)
    func anEngineCreatesTheSchemaOnceAndThenHoldsIt(_ kind: StoreKind) throws {
        let backend = try kind.open(try F.temporaryDirectory()).backend
        let layout = try layout(Self.before)
        #expect(try backend.holdsSchema(layout) == false)
        try backend.transaction(layout) {}
        #expect(try backend.holdsSchema(layout))
        // Making sure again changes nothing: the rows written stay.
        try backend.transaction(layout) {
            try backend.upsertRows(try #require(layout.table(named: "people")), [[.int(1), .string("Ada")]])
        }
        try backend.transaction(layout) {}
        let people = try backend.transaction(layout) { try backend.scanRows(try #require(layout.table(named: "people"))) }
        #expect(people.map(\.values) == [[.int(1), .string("Ada")]])
    }

    @Test(arguments: engines)
    func anEngineAddsWhatANewerLayoutNeedsAndKeepsTheRows(_ kind: StoreKind) throws {
        let directory = try F.temporaryDirectory()
        let before = try layout(Self.before)
        let old = try kind.open(directory).backend
        try old.transaction(before) {
            try old.upsertRows(try #require(before.table(named: "people")), [[.int(1), .string("Ada")]])
        }
        let after = try layout(Self.after)
        let backend = try kind.open(directory).backend
        #expect(try backend.holdsSchema(after) == false)
        let people = try #require(after.table(named: "people"))
        let rows = try backend.transaction(after) {
            try backend.upsertRows(people, [[.int(2), .string("Alan"), .string("alan@example.org")]])
            try backend.upsertBase(people, [[.int(2), .string("Alan"), .string("alan@example.org")]])
            return try backend.scanRows(people).map(\.values)
        }
        #expect(rows == [[.int(1), .string("Ada"), .null], [.int(2), .string("Alan"), .string("alan@example.org")]])
        #expect(try backend.holdsSchema(after))
        #expect(try backend.holdsSchema(before))
        let bases = try backend.transaction(after) { try backend.scanBase(people) }
        // Both engines keep base rows for local changes alone: Ada, written by rmap without one, is her own base.
        #expect(bases == [[.int(2), .string("Alan"), .string("alan@example.org")], [.int(1), .string("Ada"), .null]])
    }
}

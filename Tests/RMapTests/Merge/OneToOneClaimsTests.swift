import Testing

@testable import RMap

/// A one-to-one connected by foreign key claimed by several sources: the last source to claim it
/// keeps it and the earlier holders let go, while every source keeps the key the server sent
/// (docs/mapping.md, "Inverses"); on each engine store, as the holder column is SQL of each dialect.
@Suite("One-to-ones claimed by several sources")
struct OneToOneClaimsTests {
    static let model = """
        rmap: 1
        entities:
          Employee:
            attributes:
              id: int
              deskId: int
            relationships:
              desk:
                to_one: Desk
                inverse: occupant
                connect: { foreign_key: { deskId: id } }
          Desk:
            attributes:
              id: int
            relationships:
              occupant: { to_one: Employee }
        """

    /// The desk of each employee `employees` names (nil for none), and the occupant of each desk
    /// `desks` names, read as to-ones (``StoreObject/relatedObject(_:)``).
    private static func holders(_ run: StreamedRun, employees: [Int64], desks: [Int64]) async throws
        -> (desks: [Int64?], occupants: [Int64?])
    {
        var held: [Int64?] = []
        for id in employees { held.append(Self.id(of: try await run.object("Employee", id).relatedObject("desk"))) }
        var occupants: [Int64?] = []
        for id in desks { occupants.append(Self.id(of: try await run.object("Desk", id).relatedObject("occupant"))) }
        return (held, occupants)
    }

    private static func id(of object: StoreObject?) -> Int64? {
        object.flatMap { StreamedRun.ids([$0]).first }
    }

    @Test("in one run, the last record to claim a desk keeps it", arguments: StoreKind.all)
    func sameRun(kind: StoreKind) async throws {
        let run = try StreamedRun(Self.model, kind: kind)
        try await run.run([
            "Desk": #"[{"id": 7}, {"id": 8}]"#,
            "Employee": #"[{"id": 1, "desk_id": 7}, {"id": 2, "desk_id": 7}, {"id": 3, "desk_id": 8}]"#,
        ])
        let read = try await Self.holders(run, employees: [1, 2, 3], desks: [7, 8])
        #expect(read.desks == [nil, 7, 8])
        #expect(read.occupants == [2, 3])
        // Each keeps the key the server sent.
        #expect(try await run.object("Employee", 1).values["deskId"] == .int(7))
    }

    @Test("a later run's claim takes the desk from the stored holder", arguments: StoreKind.all)
    func acrossRuns(kind: StoreKind) async throws {
        let run = try StreamedRun(Self.model, kind: kind)
        try await run.run([
            "Desk": #"[{"id": 7}]"#, "Employee": #"[{"id": 2, "desk_id": 7}, {"id": 1, "desk_id": 7}]"#,
        ])
        #expect(try await Self.holders(run, employees: [1, 2], desks: [7]) == ([7, nil], [1]))
        // Employee 2 claims again, alone: employee 1, stored and not in this run, lets go.
        try await run.run(["Employee": #"[{"id": 2, "desk_id": 7}]"#])
        #expect(try await Self.holders(run, employees: [1, 2], desks: [7]) == ([nil, 7], [2]))
        // A run that does not claim the desk changes nobody's hold.
        try await run.run(["Desk": #"[{"id": 7}, {"id": 9}]"#])
        #expect(try await Self.holders(run, employees: [1, 2], desks: [7]) == ([nil, 7], [2]))
    }

    @Test("a key of another type than the destination's claims by value: \"7\" claims desk 7", arguments: StoreKind.all)
    func keyOfAnotherType(kind: StoreKind) async throws {
        let run = try StreamedRun(
            Self.model.replacingOccurrences(of: "deskId: int", with: "deskId: string"), kind: kind)
        try await run.run([
            "Desk": #"[{"id": 7}]"#, "Employee": #"[{"id": 1, "desk_id": "7"}, {"id": 2, "desk_id": "7"}]"#,
        ])
        try await run.run(["Employee": #"[{"id": 1, "desk_id": "7"}]"#])
        #expect(try await Self.holders(run, employees: [1, 2], desks: [7]) == ([7, nil], [1]))
    }

    /// A store of `kind` with desks 7 and 8, where employees 1 and 2 claimed desk 7 in one run, 2 last.
    private static func claimedTwice(_ kind: StoreKind) async throws -> StreamedRun {
        let run = try StreamedRun(model, kind: kind)
        try await run.run([
            "Desk": #"[{"id": 7}, {"id": 8}]"#, "Employee": #"[{"id": 1, "desk_id": 7}, {"id": 2, "desk_id": 7}]"#,
        ])
        return run
    }

    @Test("a null key releases the desk, and the earlier holder does not get it back", arguments: StoreKind.all)
    func nullReleases(kind: StoreKind) async throws {
        let run = try await Self.claimedTwice(kind)
        try await run.run(["Employee": #"[{"id": 2, "desk_id": null}]"#])
        #expect(try await Self.holders(run, employees: [1, 2], desks: [7]) == ([nil, nil], [nil]))
        // A dangling key claims nothing: nobody lets go for it.
        try await run.run(["Employee": #"[{"id": 1, "desk_id": 7}, {"id": 2, "desk_id": 99}]"#])
        #expect(try await Self.holders(run, employees: [1, 2], desks: [7]) == ([7, nil], [1]))
    }

    @Test("a local edit of the key claims as a run's last record does", arguments: StoreKind.all)
    func localEdit(kind: StoreKind) async throws {
        let run = try await Self.claimedTwice(kind)
        let sync = SyncStore(store: try run.kind.open(run.directory), model: run.model)
        let first = try #require(try sync.object("Employee", identity: [.int(1)]))
        _ = try sync.update(first, ["deskId": .int(8)])
        #expect(try await Self.holders(run, employees: [1, 2], desks: [7, 8]) == ([8, 7], [2, 1]))
        #expect(try sync.changes().count == 1)
        _ = try sync.update(try #require(try sync.object("Employee", identity: [.int(1)])), ["deskId": .int(7)])
        #expect(try await Self.holders(run, employees: [1, 2], desks: [7, 8]) == ([7, nil], [1, nil]))
        // Employee 1 is back at the server's key, and employee 2, which let go, is no local edit.
        #expect(try sync.changes().isEmpty)
    }

    @Test("a store written before the holder column reads as if every source held; the next run adds it")
    func storeWithoutHolders() async throws {
        // The same tables, written by a mapping whose `desk` has no to-one inverse.
        let older = Self.model.replacingOccurrences(of: "inverse: occupant", with: "")
            .replacingOccurrences(of: "occupant: { to_one: Employee }", with: "")
        let old = try StreamedRun(older)
        try await old.run(["Desk": #"[{"id": 7}, {"id": 8}]"#, "Employee": #"[{"id": 1, "desk_id": 7}]"#])
        let run = try StreamedRun(Self.model, over: old)
        #expect(try await Self.holders(run, employees: [1], desks: [7]) == ([7], [1]))
        try await run.run(["Employee": #"[{"id": 2, "desk_id": 7}]"#])
        #expect(try await Self.holders(run, employees: [1, 2], desks: [7]) == ([nil, 7], [2]))
    }

    @Test("only a to-one whose inverse is a to-one has a holder column: the run writes none for the others")
    func holderColumns() throws {
        let crm = try StreamedRun(ConnectFixtures.crm)
        let layout = StoreLayout(schema: GraphSchema(model: crm.model))
        #expect(layout.tables.map(\.holders.count) == layout.tables.map { $0.name == "people" ? 1 : 0 })
        #expect(layout.table(named: "people")?.holders.map(\.name) == ["_rmap_holds_desk"])
        #expect(layout.table(named: "people")?.columnIndex("_rmap_holds_desk") == nil)
    }

    @Test(
        "the holder column is rmap's own: after such a run the diff is empty and objects show no such value",
        arguments: StoreKind.all)
    func diffSeesNothing(kind: StoreKind) async throws {
        let run = try await Self.claimedTwice(kind)
        try await run.run(["Employee": #"[{"id": 1, "desk_id": 7}]"#])
        #expect(try await run.object("Employee", 2).relatedObject("desk") == nil)
        let sync = SyncStore(store: try run.kind.open(run.directory), model: run.model)
        #expect(try sync.changes().isEmpty)
        let person = try #require(try sync.object("Employee", identity: [.int(2)]))
        #expect(Set(person.values.keys) == ["id", "deskId"])
    }
}

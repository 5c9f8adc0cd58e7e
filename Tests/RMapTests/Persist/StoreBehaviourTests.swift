import Foundation
import RMap
import Testing

/// The store conformance suite: the behaviours every store shows (MAPPING.md §5, §6), run
/// against each built-in store (memory, json, SQLite, PostgreSQL), re-opened between runs
/// as a later run would. A new store joins by adding its ``StoreKind`` to ``StoreKind/all``.
@Suite("Store behaviours")
struct StoreBehaviourTests {
    typealias F = StoreFixtures

    private func counts(_ inserted: Int = 0, _ updated: Int = 0, _ unchanged: Int = 0, orphans: Int = 0)
        -> EntityWriteCounts
    {
        var counts = EntityWriteCounts()
        counts.inserted = inserted
        counts.updated = updated
        counts.unchanged = unchanged
        counts.orphansDeleted = orphans
        return counts
    }

    /// What a run wrote to `entity`'s objects, as a store's write counts them.
    private func written(_ report: RunReport, _ entity: String) -> EntityWriteCounts? {
        report.entities.first { $0.entity == entity }.map { run in
            var counts = EntityWriteCounts()
            (counts.inserted, counts.updated, counts.unchanged) = (run.inserted, run.updated, run.unchanged)
            // A run's `deleted` counts its orphans too.
            (counts.orphansDeleted, counts.deleted) = (run.orphansDeleted, run.deleted - run.orphansDeleted)
            counts.stale = run.stale
            return counts
        }
    }

    /// One run of `payloads` (by default ``StoreFixtures/crmPeople``) into the store of `kind` in `directory`.
    @discardableResult
    private func run(
        _ kind: StoreKind, _ directory: URL,
        _ payloads: [(entity: String, json: String)] = [("CRMPerson", F.crmPeople)],
        options: RunOptions = RunOptions()
    ) async throws -> RunReport {
        try await MappedRun.run(F.crm, payloads, kind: kind, directory: directory, options: options)
    }

    @Test("a new graph is inserted; re-writing it changes nothing", arguments: StoreKind.all)
    func insertAndIdempotentRerun(kind: StoreKind) async throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema()
        let first = try await run(kind, directory)
        #expect(written(first, "CRMAdmin") == counts(1))
        #expect(written(first, "CRMPerson") == counts(1))
        #expect(written(first, "CRMProject") == counts(1))
        let before = try kind.open(directory).contents(schema, "CRMPerson")
        #expect(before["1"]?["first_name"] == .string("Ann"))
        #expect(before["1"]?["level"] == .int(3))

        let second = try await run(kind, directory)
        #expect(written(second, "CRMAdmin") == counts(0, 0, 1))
        #expect(written(second, "CRMPerson") == counts(0, 0, 1))
        #expect(written(second, "CRMProject") == counts(0, 0, 1))
        #expect(try kind.open(directory).contents(schema, "CRMPerson") == before)
    }

    @Test("foreign-key columns hold the destination's identity", arguments: StoreKind.all)
    func foreignKeys(kind: StoreKind) async throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema()
        try await run(kind, directory)
        let project = try kind.open(directory).contents(schema, "CRMProject")["10"]
        #expect(project?["owner_id"] == .int(1))
        #expect(project?["person_id"] == .int(2))
        #expect(project?["team_member_ids"] == .array([.int(1), .int(2)]))
    }

    @Test("null clears a stored value; a missing key keeps it", arguments: StoreKind.all)
    func nullClearsMissingKeeps(kind: StoreKind) async throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema()
        try await run(
            kind, directory, [("CRMPerson", #"[{"id": 5, "first_name": "Eve", "address": {"city": "Oslo"}}]"#)])

        let report = try await run(kind, directory, [("CRMPerson", #"[{"id": 5, "first_name": null}]"#)])
        #expect(written(report, "CRMPerson") == counts(0, 1))
        let eve = try kind.open(directory).contents(schema, "CRMPerson")["5"]
        #expect(eve?["first_name"] == .null)
        #expect(eve?["address_city"] == .string("Oslo"))
    }

    @Test("decimals compare by value, so 12.5 after 12.50 is unchanged", arguments: StoreKind.all)
    func decimalsCompareByValue(kind: StoreKind) async throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema()
        for text in ["12.50", "12.5"] {
            let report = try await run(kind, directory, [("CRMPerson", #"[{"id": 5, "budget": \#(text)}]"#)])
            #expect(written(report, "CRMPerson") == (text == "12.50" ? counts(1) : counts(0, 0, 1)))
        }
        let stored = try kind.open(directory).contents(schema, "CRMPerson")["5"]?["budget"]
        guard case .decimal(let number) = stored else {
            Issue.record("budget is \(String(describing: stored))")
            return
        }
        #expect(number.text == "12.50")
    }

    @Test("a new attribute adds a column and keeps the data", arguments: StoreKind.all)
    func schemaGrowth(kind: StoreKind) async throws {
        let directory = try F.temporaryDirectory()
        try await run(kind, directory)
        let yaml = F.crm.replacingOccurrences(
            of: "      name: string\n", with: "      name: string\n      dueOn: date\n")
        let report = try await MappedRun.run(
            yaml, [("CRMProject", #"[{"id": 10, "due_on": "2025-01-31"}]"#)], kind: kind, directory: directory)
        #expect(written(report, "CRMProject") == counts(0, 1))
        let project = try kind.open(directory).contents(try F.schema(yaml), "CRMProject")["10"]
        #expect(project?["due_on"] == .date(LocalDate(year: 2025, month: 1, day: 31)!))
        #expect(project?["name"] == .string("Apollo"))
        #expect(project?["owner_id"] == .int(1))
    }

    @Test("three-way merge: a remote-only change applies, a local-only change stays pending", arguments: StoreKind.all)
    func threeWayMerge(kind: StoreKind) async throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema()
        try await run(kind, directory)
        try kind.open(directory).edit(schema, "CRMProject", id: 10, "name", .string("Local name"))

        let moved = F.crmPeople.replacingOccurrences(of: #""person_id": 2"#, with: #""person_id": 1"#)
        let report = try await run(kind, directory, [("CRMPerson", moved)])
        #expect(written(report, "CRMProject") == counts(0, 1))
        let objects = try kind.open(directory).objects(schema: schema)
        let table = objects.layout.table(named: "projects")!
        let project = try #require(try objects.rows(of: "CRMProject").first)
        #expect(project.values?[table.columnIndex("name")!] == .string("Local name"))
        #expect(project.base?[table.columnIndex("name")!] == .string("Apollo"))
        #expect(project.values?[table.columnIndex("person_id")!] == .int(1))
        #expect(project.base?[table.columnIndex("person_id")!] == .int(1))
    }

    @Test("both sides changed: on_conflict decides", arguments: StoreKind.all, ["fail", "local", "remote"])
    func conflicts(kind: StoreKind, policy: String) async throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema(policy: policy)
        let yaml = F.crm.replacingOccurrences(of: "${POLICY:-fail}", with: policy)
        try await MappedRun.run(yaml, [("CRMPerson", F.crmPeople)], kind: kind, directory: directory)
        try kind.open(directory).edit(schema, "CRMProject", id: 10, "name", .string("Local"))
        let before = try kind.open(directory).contents(schema, "CRMPerson")

        let people = F.crmPeople.replacingOccurrences(of: #""Ann""#, with: #""Annie""#)
            .replacingOccurrences(of: #""Apollo""#, with: #""Remote""#)
        let changed: [(entity: String, json: String)] = [
            ("CRMPerson", people), ("CRMPerson", #"[{"id": 3, "first_name": "Cy"}]"#),
        ]
        if policy == "fail" {
            let error = await #expect(throws: ConflictError.self) {
                try await MappedRun.run(yaml, changed, kind: kind, directory: directory)
            }
            #expect(
                error?.conflicts == [
                    ConflictError.Conflict(
                        entity: "CRMProject", identity: "10", attribute: "name", base: "Apollo", local: "Local",
                        remote: "Remote")
                ])
            #expect(try kind.open(directory).contents(schema, "CRMPerson") == before)
            #expect(try kind.open(directory).contents(schema, "CRMProject")["10"]?["name"] == .string("Local"))
            return
        }
        try await MappedRun.run(yaml, changed, kind: kind, directory: directory)
        let objects = try kind.open(directory).objects(schema: schema)
        let name = objects.layout.table(named: "projects")!.columnIndex("name")!
        let project = try #require(try objects.rows(of: "CRMProject").first)
        #expect(project.values?[name] == .string(policy == "local" ? "Local" : "Remote"))
        #expect(project.base?[name] == .string("Remote"))
        #expect(try kind.open(directory).contents(schema, "CRMPerson")["1"]?["first_name"] == .string("Annie"))
    }

    @Test("orphans are deleted only after a complete fetch of an orphans: delete entity", arguments: StoreKind.all)
    func orphans(kind: StoreKind) async throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema()
        try await run(
            kind, directory, [("CRMPerson", F.crmPeople), ("CRMProject", #"[{"id": 11, "name": "Gemini"}]"#)])

        // Projects arrive nested in people only: their fetch is not complete.
        let partial = try await run(kind, directory)
        #expect(written(partial, "CRMProject")?.orphansDeleted == 0)
        #expect(written(partial, "CRMPerson")?.orphansDeleted == 0)
        #expect(try kind.open(directory).contents(schema, "CRMProject").keys.sorted() == ["10", "11"])

        let complete = try await run(kind, directory, [("CRMPerson", F.crmPeople), ("CRMProject", "[]")])
        #expect(written(complete, "CRMProject") == counts(0, 0, 1, orphans: 1))
        #expect(try kind.open(directory).contents(schema, "CRMProject").keys.sorted() == ["10"])
    }

    @Test("a dry run reports the counts and writes nothing", arguments: StoreKind.all)
    func dryRun(kind: StoreKind) async throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema()
        let report = try await run(kind, directory, options: RunOptions(dryRun: true))
        #expect(written(report, "CRMAdmin") == counts(1))
        #expect(written(report, "CRMProject") == counts(1))
        #expect(try kind.open(directory).contents(schema, "CRMPerson").isEmpty)
        #expect(try kind.open(directory).contents(schema, "CRMProject").isEmpty)
    }

    @Test("objects created locally have no base until a push acknowledges them", arguments: StoreKind.all)
    func localInsertsAndAcknowledge(kind: StoreKind) throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema()
        let created = try SyncStore(store: try kind.open(directory), model: try F.model())
            .insert("CRMPerson", ["firstName": .string("New")])
        #expect(created.identity == [.int(-1)])

        let objects = try kind.open(directory).objects(schema: schema)
        let inserted = try objects.localInserts(of: "CRMPerson")
        #expect(inserted.count == 1)
        let row = try #require(inserted.first)
        #expect(row.values?[0] == .int(-1))
        var values = try #require(row.values)
        values[0] = .int(99)
        try objects.acknowledge("CRMPerson", reference: try #require(row.reference), values: values)

        let after = try kind.open(directory).objects(schema: schema)
        #expect(try after.localInserts(of: "CRMPerson").isEmpty)
        let stored = try #require(try after.rows(of: "CRMPerson").first)
        #expect(stored.values == values)
        #expect(stored.base == values)
    }

    @Test("every type reads back exactly as written, in the row and in the base", arguments: StoreKind.all)
    func storedForms(kind: StoreKind) async throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema()
        // ``StoreFixtures/everyType`` as a payload.
        let admin: [(entity: String, json: String)] = [
            (
                "CRMPerson",
                #"""
                [{"id": 7, "type": "Admin", "first_name": "Zoë \"q\" \\ tab\there\nline, 東京 🚀",
                  "address": {"city": ""}, "budget": 1234.50, "admin": false, "born_on": "1985-12-10",
                  "seen_at": "2023-11-14T22:13:20.123Z", "score": 0.1, "tags": ["a", "b \"c\" \\", ""],
                  "raw": {"a": 1.50, "b": [true, null, "x"]}, "homepage": "https://example.com/a?b=1&c=%20",
                  "level": -9007199254740993}]
                """#
            )
        ]
        #expect(written(try await run(kind, directory, admin), "CRMAdmin") == counts(1))

        let stored = try kind.open(directory).contents(schema, "CRMPerson")["7"]
        #expect(stored == F.everyTypeColumns)
        let objects = try kind.open(directory).objects(schema: schema)
        let row = try #require(try objects.rows(of: "CRMPerson").first)
        #expect(row.entity == "CRMAdmin")
        #expect(row.base == row.values)

        #expect(written(try await run(kind, directory, admin), "CRMAdmin") == counts(0, 0, 1))
    }

    @Test(
        "a run that fails after staging (strict, a dangling reference) leaves the store as it was, and the store stays usable",
        arguments: StoreKind.all)
    func failedRunChangesNothing(kind: StoreKind) async throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema()
        try await run(
            kind, directory, [("CRMPerson", F.crmPeople), ("CRMProject", #"[{"id": 11, "name": "Gemini"}]"#)])
        func snapshot() throws -> [[StoredObject]] {
            let objects = try kind.open(directory).objects(schema: schema)
            return [try objects.rows(of: "CRMPerson"), try objects.rows(of: "CRMProject")]
        }
        let before = try snapshot()

        // Annie, Apollo 2 and Cy; project 11 left out of a complete fetch of projects (an orphan);
        // project 12's manager is no one.
        let second: [(entity: String, json: String)] = [
            (
                "CRMPerson",
                F.crmPeople(ann: "Annie", project: "Apollo 2").replacingOccurrences(
                    of: #"{"id": 2, "first_name": "Bob"}"#,
                    with: #"{"id": 2, "first_name": "Bob"}, {"id": 3, "first_name": "Cy"}"#)
            ),
            ("CRMProject", #"[{"id": 12, "name": "Mercury", "person_id": 99}]"#),
        ]
        var strict = RunOptions()
        strict.strict = true
        await #expect(throws: StrictFailure.self) { try await run(kind, directory, second, options: strict) }
        #expect(try snapshot() == before)

        let report = try await run(kind, directory, second)
        #expect(written(report, "CRMProject") == counts(1, 1, orphans: 1))
        let people = try kind.open(directory).contents(schema, "CRMPerson")
        #expect(people["1"]?["first_name"] == .string("Annie"))
        #expect(people["3"]?["first_name"] == .string("Cy"))
        #expect(try kind.open(directory).contents(schema, "CRMProject").keys.sorted() == ["10", "12"])
    }

    @Test("the base is the last server state: diff sees exactly the local edits", arguments: StoreKind.all)
    func diffInput(kind: StoreKind) async throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema()
        try await run(kind, directory)
        try kind.open(directory).edit(schema, "CRMProject", id: 10, "name", .string("Local"))

        let objects = try kind.open(directory).objects(schema: schema)
        let table = objects.layout.table(named: "projects")!
        let project = try #require(try objects.rows(of: "CRMProject").first)
        let values = try #require(project.values)
        let base = try #require(project.base)
        let changed = table.columns.indices.filter { values[$0] != base[$0] }.map { table.columns[$0].name }
        #expect(changed == ["name"])
        #expect(base[table.columnIndex("name")!] == .string("Apollo"))
        #expect(try objects.rows(of: "CRMPerson").allSatisfy { $0.values == $0.base })
        #expect(try objects.localInserts(of: "CRMProject").isEmpty)

        try objects.acknowledge("CRMProject", reference: try #require(project.reference), values: values)
        let acknowledged = try #require(try kind.open(directory).objects(schema: schema).rows(of: "CRMProject").first)
        #expect(acknowledged.base == values)
        #expect(acknowledged.values == values)
    }

    @Test("rows keep their insertion order; an update keeps a row's place", arguments: StoreKind.all)
    func insertionOrder(kind: StoreKind) async throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema()
        try await run(kind, directory)
        let later = F.crmPeople.replacingOccurrences(of: #""Ann""#, with: #""Annie""#)
        try await run(kind, directory, [("CRMPerson", later), ("CRMPerson", #"[{"id": 0, "first_name": "Zed"}]"#)])

        let objects = try kind.open(directory).objects(schema: schema)
        let rows = try objects.rows(of: "CRMPerson").compactMap(\.values)
        #expect(rows.map { $0[0] } == [.int(1), .int(2), .int(0)])
        #expect(rows.first?[1] == .string("Annie"))
    }
}

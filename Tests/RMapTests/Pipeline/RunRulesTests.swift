import Foundation
import RMapSQLite
import Testing

/// MAPPING.md §2–§5 end to end: `rmap run` over `Tests/Fixtures/pipeline/crm.yml`,
/// then the SQLite file is read back.
@Suite("rmap run: mapping rules end to end")
struct RunRulesTests {
    @Test("every type is stored in its documented form, under the attribute's JSON key")
    func storedForms() async throws {
        let workspace = try RunWorkspace.crm()
        let result = try await workspace.rmap(["run", "crm.yml", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let columns = try workspace.rows("SELECT name, type FROM pragma_table_info('people') ORDER BY cid")
        #expect(
            columns.map { "\($0[0]) \($0[1])" }.map {
                $0.replacingOccurrences(of: "text(\"", with: "").replacingOccurrences(of: "\")", with: "")
            } == [
                "id INTEGER", "first_name TEXT", "email TEXT", "born_on TEXT", "created_at TEXT", "seen_at TEXT",
                "budget TEXT", "admin INTEGER", "score REAL", "address_city TEXT", "lamp_enabled INTEGER",
                "status TEXT",
                "tags TEXT", "homepage TEXT", "token TEXT", "raw TEXT", "slug TEXT", "level INTEGER", "type TEXT",
            ])
        let ada = try workspace.rows("SELECT * FROM people WHERE id = 1")
        #expect(
            ada == [
                [
                    .integer(1), .text("Ada"), .text("ada@example.com"), .text("1985-12-10"),
                    .text("2023-02-11T09:04:00.500Z"), .text("2023-11-14T22:13:20.123Z"), .text("12.50"), .integer(1),
                    .real(4.5), .text("London"), .integer(1), .text("active"), .text(#"["x","y"]"#),
                    .text("https://example.com/ada"), .text("0f8fad5b-d9cb-469f-a165-70867728950e"),
                    .text(#"{"b":[1,2.50,null],"a":"z"}"#), .text("ada-l"), .integer(3), .text("Admin"),
                ]
            ])
        // A number for a decimal keeps its digits; 0 for a bool is false; a default fills a missing key.
        let grace = try workspace.rows("SELECT budget, admin, score, born_on, level, type FROM people WHERE id = 2")
        #expect(grace == [[.text("12.5"), .integer(0), .real(0), .null, .null, .text("Person")]])
    }

    @Test("JSON null clears a stored value; a missing key keeps it")
    func nullAndMissing() async throws {
        let workspace = try RunWorkspace.crm()
        #expect(try await workspace.rmap(["run", "crm.yml", "--quiet"]).status == 0)
        try workspace.write(
            "data/people.json",
            #"""
            [{"id": 1, "type": "Admin", "email": "ada@example.com", "born_on": null, "tags": null, "address": {"city": null}},
             {"id": 2, "email": "grace@example.com"}]
            """#)
        let result = try await workspace.rmap(["run", "crm.yml", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let ada = try workspace.rows(
            "SELECT first_name, born_on, tags, address_city, budget, level, slug FROM people WHERE id = 1")
        #expect(ada == [[.text("Ada"), .null, .null, .null, .text("12.50"), .integer(3), .text("ada-l")]])
        let grace = try workspace.rows("SELECT first_name, budget, admin FROM people WHERE id = 2")
        #expect(grace == [[.text("Grace"), .text("12.5"), .integer(0)]])
        let report = try RunJSON(result.stdout)
        #expect(report.counts("CRMAdmin")["updated"] == 1)
        #expect(report.counts("CRMPerson")["unchanged"] == 1)
    }

    @Test("record errors: reported with entity, identity, attribute, key, value and origin; exit 3; the rest is stored")
    func recordErrors() async throws {
        let workspace = try RunWorkspace.crm(
            people: #"""
                [{"id": 1, "email": "ada@example.com"},
                 {"id": 2, "email": "grace@example.com", "born_on": "1985-13-40"},
                 {"id": 3, "first_name": "No Mail"}]
                """#)
        let result = try await workspace.rmap(["run", "crm.yml", "--quiet"])
        #expect(result.status == 3)
        let rejected = result.stderr.split(separator: "\n").filter { $0.hasPrefix("rejected: ") }
        #expect(rejected.count == 2, "\(result.stderr)")
        #expect(
            rejected.first?.hasPrefix(
                "rejected: data/people.json record 1 (CRMPerson id=2): attribute 'bornOn' (key born_on): ") == true)
        #expect(rejected.first?.contains("1985-13-40") == true)
        #expect(
            rejected.last?.hasPrefix("rejected: data/people.json record 2 (CRMPerson id=3): attribute 'email'")
                == true)
        #expect(try workspace.rows("SELECT id FROM people ORDER BY id") == [[.integer(1)]])

        let json = try await RunJSON(workspace.rmap(["run", "crm.yml", "--json"]).stdout)
        #expect(json.status == "rejected")
        let first = try #require(json.rejected.first)
        #expect(first["entity"] as? String == "CRMPerson")
        #expect(first["identity"] as? String == "id=2")
        #expect(first["attribute"] as? String == "bornOn")
        #expect(first["key"] as? String == "born_on")
        #expect((first["value"] as? String)?.contains("1985-13-40") == true)
        #expect(first["origin"] as? String == "data/people.json")
        #expect(first["index"] as? Int == 1)
        #expect(json.counts("CRMPerson")["rejected"] == 2)
    }

    @Test("dangling references: the row is stored with its key, the reference listed, exit 3")
    func dangling() async throws {
        let workspace = try RunWorkspace.crm(projects: #"[{"id": 5, "name": "Engine", "person_id": 99}]"#)
        let result = try await workspace.rmap(["run", "crm.yml", "--quiet"])
        #expect(result.status == 3)
        #expect(
            result.stderr
                == "dangling: data/projects.json#0: CRMProject 5: 'owner' found no CRMPerson with id 99\n")
        #expect(try workspace.rows("SELECT id, person_id FROM projects") == [[.integer(5), .integer(99)]])
        let json = try await RunJSON(workspace.rmap(["run", "crm.yml", "--json"]).stdout)
        let reference = try #require(json.dangling.first)
        #expect(reference["entity"] as? String == "CRMProject")
        #expect(reference["identity"] as? String == "5")
        #expect(reference["relationship"] as? String == "owner")
        #expect(reference["destination"] as? String == "CRMPerson")
        #expect(reference["values"] as? [Int] == [99])
        #expect(json.counts("CRMProject")["dangling"] == 1)
    }

    @Test("a person nested in a project and listed at the top level is one row, with the later values")
    func nestedIdentity() async throws {
        let workspace = try RunWorkspace([
            "m.yml": """
            rmap: 1
            source: { plugin: file, path: "{collection}.json" }
            store: { plugin: sqlite, path: rmap.sqlite }
            entities:
              Person:
                attributes: { id: int, name: string, email: string }
              Project:
                attributes: { id: int, title: string }
                relationships:
                  owner: { to_one: Person, nested: true }
            """,
            "people.json": #"[{"id": 1, "name": "Ada", "email": "ada@example.com"}, {"id": 2, "name": "Grace"}]"#,
            "projects.json": #"[{"id": 5, "title": "Engine", "owner": {"id": 1, "name": "Ada L."}}]"#,
        ])
        let result = try await workspace.rmap(["run", "m.yml", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try workspace.rows("SELECT id, name, email FROM people ORDER BY id") == [
                [.integer(1), .text("Ada L."), .text("ada@example.com")], [.integer(2), .text("Grace"), .null],
            ])
        #expect(try workspace.rows("SELECT id, owner_id FROM projects") == [[.integer(5), .integer(1)]])
    }

    @Test("polymorphic records share their root's table, told apart by `type`; nested records link by key")
    func singleTableInheritance() async throws {
        let workspace = try RunWorkspace.crm()
        let result = try await workspace.rmap(["run", "crm.yml", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try workspace.rows("SELECT id, type, level FROM people ORDER BY id") == [
                [.integer(1), .text("Admin"), .integer(3)], [.integer(2), .text("Person"), .null],
            ])
        #expect(try workspace.tables() == ["notes", "people", "projects"])
        #expect(
            try workspace.rows("SELECT id, text, author_id FROM notes") == [[.integer(7), .text("hi"), .integer(1)]])
        let report = try RunJSON(result.stdout)
        #expect(report.counts("CRMAdmin")["inserted"] == 1)
        #expect(report.counts("CRMPerson")["inserted"] == 1)
        #expect(report.counts("CRMAdmin")["unmapped_keys"] == 1)
    }

    @Test("orphans: delete removes what a complete fetch no longer has; keep (the default) keeps it")
    func orphans() async throws {
        let workspace = try RunWorkspace.crm()
        #expect(try await workspace.rmap(["run", "crm.yml", "--quiet"]).status == 0)
        try workspace.write("data/people.json", #"[{"id": 1, "type": "Admin", "email": "ada@example.com"}]"#)
        try workspace.write("data/projects.json", #"[{"id": 5, "name": "Engine", "person_id": 1}]"#)

        // A fetch of projects alone is not a complete fetch of people: nobody is deleted.
        let partial = try await workspace.rmap(["run", "crm.yml", "--quiet", "--only", "CRMProject"])
        #expect(partial.status == 0, "\(partial.stderr)")
        #expect(try workspace.rows("SELECT id FROM people ORDER BY id") == [[.integer(1)], [.integer(2)]])

        let result = try await workspace.rmap(["run", "crm.yml", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try workspace.rows("SELECT id FROM people ORDER BY id") == [[.integer(1)]])
        #expect(try workspace.rows("SELECT id FROM projects ORDER BY id") == [[.integer(5)], [.integer(6)]])
        #expect(try RunJSON(result.stdout).totals["orphans_deleted"] == 1)
    }

    @Test("re-running the same input changes nothing")
    func idempotent() async throws {
        let workspace = try RunWorkspace.crm()
        let first = try await RunJSON(workspace.rmap(["run", "crm.yml", "--json"]).stdout)
        #expect(first.totals["inserted"] == 5)
        let rows = try workspace.rows("SELECT * FROM people ORDER BY id")
        let again = try await workspace.rmap(["run", "crm.yml", "--json"])
        #expect(again.status == 0)
        let second = try RunJSON(again.stdout)
        #expect(second.totals["inserted"] == 0)
        #expect(second.totals["updated"] == 0)
        #expect(second.totals["unchanged"] == 5)
        #expect(try workspace.rows("SELECT * FROM people ORDER BY id") == rows)
    }

    @Test("a run that fails (a second entity's file is not JSON) leaves the store exactly as before")
    func failedRunWritesNothing() async throws {
        let workspace = try RunWorkspace.crm()
        #expect(try await workspace.rmap(["run", "crm.yml", "--quiet"]).status == 0)
        let before = try #require(workspace.bytes())
        try workspace.write(
            "data/people.json", #"[{"id": 1, "type": "Admin", "email": "new@example.com"}, {"id": 3, "email": "c@x"}]"#)
        try workspace.write("data/projects.json", #"{"projects": [{"id": 5, "name": "Engine""#)
        let result = try await workspace.rmap(["run", "crm.yml", "--quiet"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: data/projects.json"), "\(result.stderr)")
        #expect(result.stdout == "")
        #expect(workspace.bytes() == before)
    }

    @Test("--strict: a rejected record or a dangling reference fails the run with exit 1, the store unchanged")
    func strict() async throws {
        let workspace = try RunWorkspace.crm()
        #expect(try await workspace.rmap(["run", "crm.yml", "--quiet"]).status == 0)
        let before = try #require(workspace.bytes())

        try workspace.write("data/projects.json", #"[{"id": 5, "name": "Engine", "person_id": 99}]"#)
        let dangling = try await workspace.rmap(["run", "crm.yml", "--quiet", "--strict"])
        #expect(dangling.status == 1)
        #expect(
            dangling.stderr == """
                dangling: data/projects.json#0: CRMProject 5: 'owner' found no CRMPerson with id 99
                Error: strict run failed: 0 rejected record(s), 1 dangling reference(s); nothing was written

                """)
        #expect(workspace.bytes() == before)

        try workspace.write("data/projects.json", #"[{"id": 5, "name": "Engine", "person_id": 1}]"#)
        try workspace.write("data/people.json", #"[{"id": 1, "type": "Admin", "email": "a@x", "level": "high"}]"#)
        let rejected = try await workspace.rmap(["run", "crm.yml", "--json", "--strict"])
        #expect(rejected.status == 1)
        let report = try RunJSON(rejected.stdout)
        #expect(report.status == "failed")
        #expect(report.rejected.first?["attribute"] as? String == "level")
        #expect(workspace.bytes() == before)
    }
}

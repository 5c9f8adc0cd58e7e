import Foundation
import RMap
import RMapSQLite
import Testing

/// Re-runs skip files whose bytes are unchanged (``RememberedPayloads``), like an HTTP `304`:
/// their objects count as unchanged, nested ones included, and the store ends as a full run
/// would leave it.
@Suite("Remembered payloads (re-runs skip unchanged files)")
struct RememberedPayloadTests {
    /// The source, store and naming every model of the suite shares, up to `entities:`.
    static let settings = """
        rmap: 1
        source: { plugin: file, path: "data/{collection}.json", skip_unchanged: true }
        naming: { entity_prefix: X }
        store: { plugin: sqlite, path: rmap.sqlite }

        """

    static let model =
        settings + """
            entities:
              XPerson:
                orphans: delete
                attributes: { id: int, name: string, email: { type: string, required: true } }
                relationships:
                  notes: { to_many: XNote, inverse: author, nested: true }
              XNote:
                source: false
                attributes: { id: int, text: string }
                relationships:
                  author: { to_one: XPerson, inverse: notes }
              XProject:
                orphans: delete
                attributes: { id: int, name: string, personId: int, memberIds: [int] }
                relationships:
                  owner: { to_one: XPerson, connect: { foreign_key: { personId: id } } }
            """

    static let people = """
        [{"id": 1, "name": "Ada", "email": "a@x", "notes": [{"id": 10, "text": "n10"}, {"id": 11, "text": "n11"}]},
         {"id": 2, "name": "Grace", "email": "g@x", "notes": [{"id": 20, "text": "n20"}]},
         {"id": 3, "name": "Linus", "email": "l@x", "notes": []}]
        """

    static let projects = """
        [{"id": 5, "name": "Engine", "person_id": 1}, {"id": 6, "name": "Loom", "person_id": 2}]
        """

    static func workspace(model: String = model, people: String = people, projects: String = projects) throws
        -> RunWorkspace
    {
        try RunWorkspace(["m.yml": model, "data/people.json": people, "data/projects.json": projects])
    }

    /// `rmap run m.yml --json` and its report; `status`: the exit status expected (3: rejected or dangling).
    static func run(_ workspace: RunWorkspace, _ options: [String] = [], status: Int32 = 0) async throws -> RunJSON {
        let result = try await workspace.rmap(["run", "m.yml", "--json", "--quiet"] + options)
        #expect(result.status == status, "\(result.stderr)")
        return try RunJSON(result.stdout)
    }

    static func count(_ workspace: RunWorkspace, _ table: String) throws -> Int {
        let rows = try workspace.rows("SELECT count(*) FROM \(table)")
        guard case .integer(let count) = rows.first?.first else { return -1 }
        return Int(count)
    }

    @Test("an unchanged re-run maps nothing and counts every object unchanged, nested ones too")
    func unchanged() async throws {
        let workspace = try Self.workspace()
        let first = try await Self.run(workspace)
        let second = try await Self.run(workspace)
        for entity in ["XPerson", "XNote", "XProject"] {
            #expect(first.counts(entity)["inserted"] ?? 0 > 0)
            #expect(second.counts(entity)["fetched"] == 0, "\(entity) was mapped again")
            #expect(second.counts(entity)["unchanged"] == first.counts(entity)["inserted"], "\(entity)")
            #expect(second.counts(entity)["orphans_deleted"] ?? 0 == 0, "\(entity)")
        }
        #expect(try Self.count(workspace, "notes") == 3)
        #expect(try Self.count(workspace, "people") == 3)
    }

    @Test("without required values (rows merged as they are staged) an unchanged re-run maps nothing too")
    func unchangedMergedWhileStaging() async throws {
        let model = Self.model.replacingOccurrences(
            of: "email: { type: string, required: true }", with: "email: string")
        #expect(model != Self.model)
        let workspace = try Self.workspace(model: model)
        let first = try await Self.run(workspace)
        let second = try await Self.run(workspace)
        for entity in ["XPerson", "XNote", "XProject"] {
            #expect(second.counts(entity)["fetched"] == 0, "\(entity) was mapped again")
            #expect(second.counts(entity)["unchanged"] == first.counts(entity)["inserted"], "\(entity)")
        }
    }

    @Test("an object in two payloads stays while one of them is unchanged and the other drops it")
    func objectInTwoPayloads() async throws {
        let model =
            Self.settings + """
                entities:
                  XPerson: { orphans: delete, attributes: { id: int, name: string } }
                  XProject:
                    orphans: delete
                    attributes: { id: int, name: string }
                    relationships:
                      owner: { to_one: XPerson, nested: true }
                """
        let workspace = try Self.workspace(
            model: model, people: #"[{"id": 1, "name": "Ada"}, {"id": 2, "name": "Grace"}]"#,
            projects: #"[{"id": 5, "name": "Engine", "owner": {"id": 1, "name": "Ada"}}]"#)
        _ = try await Self.run(workspace)
        try workspace.write(
            "data/projects.json", #"[{"id": 5, "name": "Engine", "owner": {"id": 2, "name": "Grace"}}]"#)
        let second = try await Self.run(workspace)
        #expect(second.counts("XPerson")["orphans_deleted"] ?? 0 == 0)
        #expect(try Self.count(workspace, "people") == 2, "Ada is still in people.json")
    }

    @Test("a changed file is mapped in full: its change stored, its missing objects deleted as orphans")
    func changedFile() async throws {
        let workspace = try Self.workspace()
        _ = try await Self.run(workspace)
        try workspace.write(
            "data/people.json",
            Self.people.replacingOccurrences(of: "\"Grace\"", with: "\"Hopper\"")
                .replacingOccurrences(
                    of: ",\n {\"id\": 3, \"name\": \"Linus\", \"email\": \"l@x\", \"notes\": []}", with: "")
        )
        let second = try await Self.run(workspace)
        #expect(second.counts("XPerson")["fetched"] == 2)
        #expect(second.counts("XPerson")["updated"] == 1)
        #expect(second.counts("XPerson")["orphans_deleted"] == 1)
        #expect(second.counts("XProject")["fetched"] == 0)
        #expect(second.counts("XProject")["unchanged"] == 2)
        #expect(try workspace.rows("SELECT name FROM people WHERE id = 2").first?.first == .text("Hopper"))
        let third = try await Self.run(workspace)
        #expect(third.counts("XPerson")["fetched"] == 0)
        #expect(third.counts("XPerson")["unchanged"] == 2)
        #expect(third.counts("XNote")["unchanged"] == 3)
    }

    @Test("--full maps every file again and remembers them anew; a changed mapping forgets them")
    func fullAndMapping() async throws {
        let workspace = try Self.workspace()
        _ = try await Self.run(workspace)
        let full = try await Self.run(workspace, ["--full"])
        #expect(full.counts("XPerson")["fetched"] == 3)
        #expect(full.counts("XPerson")["unchanged"] == 3)
        await #expect(try Self.run(workspace).counts("XPerson")["fetched"] == 0)
        try workspace.write(
            "m.yml", Self.model.replacingOccurrences(of: "name: string", with: "name: { type: string }"))
        let changed = try await Self.run(workspace)
        #expect(changed.counts("XPerson")["fetched"] == 3)
        #expect(changed.counts("XProject")["fetched"] == 2)
    }

    @Test("a run of another mapping into the same store forgets every remembered payload")
    func anotherMapping() async throws {
        let workspace = try Self.workspace()
        try workspace.write("data2/people.json", Self.people.replacingOccurrences(of: "Grace", with: "Hopper"))
        try workspace.write("data2/projects.json", Self.projects)
        try workspace.write(
            "m2.yml", Self.model.replacingOccurrences(of: "data/{collection}", with: "data2/{collection}"))
        _ = try await Self.run(workspace)
        let other = try await workspace.rmap(["run", "m2.yml", "--quiet"])
        #expect(other.status == 0, "\(other.stderr)")
        #expect(try workspace.rows("SELECT name FROM people WHERE id = 2").first?.first == .text("Hopper"))
        let again = try await Self.run(workspace)
        #expect(again.counts("XPerson")["fetched"] == 3)
        #expect(again.counts("XPerson")["updated"] == 1)
        #expect(try workspace.rows("SELECT name FROM people WHERE id = 2").first?.first == .text("Grace"))
    }

    @Test("a payload with a rejected record or a dangling reference is not remembered")
    func troubledPayloads() async throws {
        let workspace = try Self.workspace(
            people: Self.people.replacingOccurrences(of: ", \"email\": \"l@x\"", with: ""),
            projects: Self.projects.replacingOccurrences(of: "\"person_id\": 2", with: "\"person_id\": 99"))
        let first = try await Self.run(workspace, status: 3)
        #expect(first.rejected.count == 1)
        #expect(first.dangling.count == 1)
        let second = try await Self.run(workspace, status: 3)
        #expect(second.counts("XPerson")["fetched"] == 3)
        #expect(second.counts("XProject")["fetched"] == 2)
        #expect(second.dangling.count == 1)
    }

    @Test("a --strict run that fails remembers nothing")
    func strictFailure() async throws {
        let workspace = try Self.workspace(
            projects: Self.projects.replacingOccurrences(of: "\"person_id\": 2", with: "\"person_id\": 99"))
        let failed = try await workspace.rmap(["run", "m.yml", "--strict", "--quiet"])
        #expect(failed.status != 0)
        #expect(try workspace.tables().isEmpty)
        try workspace.write("data/projects.json", Self.projects)
        _ = try await Self.run(workspace)
        await #expect(try Self.run(workspace).counts("XPerson")["fetched"] == 0)
    }

    @Test("objects that a stored link names are never skipped: a join table keeps its links")
    func pinnedByJoinTable() async throws {
        let model = Self.model.replacingOccurrences(
            of: "owner: { to_one: XPerson, connect: { foreign_key: { personId: id } } }",
            with: """
                owner: { to_one: XPerson, connect: { foreign_key: { personId: id } } }
                      members: { to_many: XPerson, connect: { foreign_key: { memberIds: id } } }
                """)
        let projects = Self.projects.replacingOccurrences(
            of: "\"person_id\": 1}", with: "\"person_id\": 1, \"member_ids\": [1, 2]}")
        let workspace = try Self.workspace(model: model, projects: projects)
        _ = try await Self.run(workspace)
        #expect(try Self.count(workspace, "projects_members") == 2)
        try workspace.write("data/projects.json", projects.replacingOccurrences(of: "Loom", with: "Looms"))
        let second = try await Self.run(workspace)
        #expect(second.counts("XPerson")["fetched"] == 3, "people are linked to by a join table: never skipped")
        #expect(second.counts("XProject")["updated"] == 1)
        #expect(try Self.count(workspace, "projects_members") == 2)
        let third = try await Self.run(workspace)
        #expect(third.counts("XProject")["fetched"] == 0)
        #expect(try Self.count(workspace, "projects_members") == 2)
    }

    @Test(
        "a remembered payload keeps its hash in the run state and its objects' identities in the store, nested and composite ones too"
    )
    func storedEntry() async throws {
        let model =
            Self.model + """

                  XSeat:
                    orphans: delete
                    identity: [room, number]
                    attributes: { room: string, number: int }
                """
        let workspace = try Self.workspace(model: model)
        try workspace.write("data/seats.json", #"[{"room": "A", "number": 1}, {"room": "B", "number": 2}]"#)
        _ = try await Self.run(workspace)
        let rows = try workspace.rows("SELECT key, value FROM _rmap_state WHERE scope = 'payload' ORDER BY key")
        var entries: [String: JSONValue] = [:]
        for row in rows {
            guard case .text(let key) = row[0], case .text(let text) = row[1] else { continue }
            entries[(key as NSString).lastPathComponent] = try JSONReader.parse(text, origin: key)
        }
        #expect(entries["people.json"]?.object?["hash"]?.string?.isEmpty == false)
        #expect(entries["people.json"]?.object?["objects"] == .string("numbered-tables"))
        /// The remembered objects of one payload file in one table, as `entity identity...` texts.
        func remembered(_ table: String, _ file: String, _ columns: String) throws -> [String] {
            try workspace.rows(
                "SELECT entity, \(columns) FROM _rmap_remembered_\(table) AS m JOIN _rmap_payload_numbers AS n "
                    + "ON n.payload = m.payload WHERE n.origin LIKE '%/\(file)' ORDER BY 2, 3"
            ).map { row in row.map { "\($0)" }.joined(separator: " ") }
        }
        #expect(try remembered("people", "people.json", "id, id").count == 3)
        #expect(try remembered("notes", "people.json", "id, id").count == 3, "the nested notes are the payload's too")
        #expect(try remembered("projects", "projects.json", "id, id").count == 2)
        #expect(
            try remembered("seats", "seats.json", "room, number").count == 2, "a composite identity, column by column")

        let second = try await Self.run(workspace)
        #expect(second.counts("XSeat")["fetched"] == 0)
        #expect(second.counts("XSeat")["unchanged"] == 2)
        #expect(second.counts("XNote")["unchanged"] == 3)
    }

    @Test(
        "a store whose payloads were remembered in the earlier form (by origin text) maps them again and loses nothing")
    func earlierForm() async throws {
        let workspace = try Self.workspace()
        let first = try await Self.run(workspace)
        // Back to the form of earlier releases: each object's payload by its origin's text.
        let store = try SQLiteConnection(path: workspace.path("rmap.sqlite"))
        for table in ["people", "notes", "projects"] {
            let name = "_rmap_remembered_\(table)"
            try store.execute(
                "CREATE TABLE old AS SELECT n.origin AS origin, m.entity AS entity, m.id AS id FROM \(name) AS m "
                    + "JOIN _rmap_payload_numbers AS n ON n.payload = m.payload")
            try store.execute("DROP TABLE \(name)")
            try store.execute("ALTER TABLE old RENAME TO \(name)")
        }
        try store.execute("DROP TABLE _rmap_payload_numbers")
        try store.execute(
            "UPDATE _rmap_state SET value = replace(value, '\"numbered-tables\"', '\"tables\"') WHERE scope = 'payload'"
        )

        let second = try await Self.run(workspace)
        for entity in ["XPerson", "XNote", "XProject"] {
            #expect(second.counts(entity)["fetched"] ?? 0 > 0, "\(entity): an entry of the earlier form was trusted")
            #expect(second.counts(entity)["unchanged"] == first.counts(entity)["inserted"], "\(entity)")
            #expect(second.counts(entity)["orphans_deleted"] ?? 0 == 0, "\(entity)")
        }
        #expect(try Self.count(workspace, "people") == 3)
        #expect(try Self.count(workspace, "notes") == 3)
        #expect(try Self.count(workspace, "_rmap_remembered_notes WHERE payload IS NOT NULL") == 3)
        let third = try await Self.run(workspace)
        #expect(third.counts("XPerson")["fetched"] == 0, "remembered again in the new form")
        #expect(third.counts("XNote")["unchanged"] == 3)
    }

    @Test("standard input: the same document again is not parsed; another one is mapped")
    func standardInput() async throws {
        let workspace = try RunWorkspace([
            "m.yml": """
            rmap: 1
            source: { plugin: stdin, skip_unchanged: true }
            store: { plugin: sqlite, path: rmap.sqlite }
            entities:
              Tag:
                orphans: delete
                attributes: { id: int, name: string }
            """
        ])
        func run(_ input: String) async throws -> RunJSON {
            let result = try await workspace.rmap(["run", "m.yml", "--json", "--quiet"], stdin: input)
            #expect(result.status == 0, "\(result.stderr)")
            return try RunJSON(result.stdout)
        }
        let tags = #"[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]"#
        #expect(try await run(tags).counts("Tag")["inserted"] == 2)
        let again = try await run(tags)
        #expect(again.counts("Tag")["fetched"] == 0)
        #expect(again.counts("Tag")["unchanged"] == 2)
        let other = try await run(#"[{"id": 1, "name": "a"}]"#)
        #expect(other.counts("Tag")["fetched"] == 1)
        #expect(other.counts("Tag")["orphans_deleted"] == 1)
    }
}

import Foundation
import Testing

@testable import RMap

/// Sync semantics that RestKit's own tests check (issue #11), on every store: a
/// partial payload never wipes or rejects stored data, a `replace` nested to-many
/// releases the children it no longer lists, and a nested to-one set to `null`
/// clears the stored link.
@Suite("Sync semantics")
struct SyncSemanticsTests {
    typealias F = StoreFixtures

    static let yaml = """
        rmap: 1
        naming: { entity_prefix: CRM }
        entities:
          CRMPerson:
            attributes:
              id: int
              name: { type: string, required: true }
              status: { type: string, default: active }
              archived: { type: bool, default: false, default_on_missing: true }
            relationships:
              projects: { to_many: CRMProject, inverse: owner, nested: true }
              address: { to_one: CRMAddress, nested: true }
          CRMProject:
            attributes:
              id: int
              title: string
            relationships:
              owner: { to_one: CRMPerson }
          CRMAddress:
            attributes:
              id: int
              city: string
        """

    /// Runs `json` as people (and `projects`) into the store of `kind` in `directory`: one run.
    private func run(_ json: String, projects: String = "[]", kind: StoreKind, directory: URL) async throws
        -> RunReport
    {
        try await MappedRun.run(
            Self.yaml, [("CRMProject", projects), ("CRMPerson", json)], kind: kind, directory: directory)
    }

    private func contents(_ kind: StoreKind, _ directory: URL, _ entity: String) throws -> [String: [String: Value]] {
        try kind.open(directory).contents(GraphSchema(model: try F.model(Self.yaml)), entity)
    }

    // MARK: - Defaults and required

    @Test("defaults and required apply to objects new to the store, not new to the run", arguments: StoreKind.all)
    func defaultsAndRequiredForNewObjectsOnly(kind: StoreKind) async throws {
        let directory = try F.temporaryDirectory()
        _ = try await run(
            #"[{"id": 1, "name": "Ann", "status": "inactive", "archived": true}]"#, kind: kind, directory: directory)

        let report = try await run(
            #"[{"id": 1}, {"id": 2}, {"id": 3, "name": "Cy"}]"#, kind: kind, directory: directory)
        #expect(report.recordErrors.map(\.identity) == ["id=2"])
        #expect(report.recordErrors.first?.message == "required attribute is missing on a new object")
        #expect(report[entity: "CRMPerson"]?.inserted == 1)
        #expect(report[entity: "CRMPerson"]?.updated == 1)
        let people = try contents(kind, directory, "CRMPerson")
        #expect(people["1"]?["name"] == .string("Ann"))
        #expect(people["1"]?["status"] == .string("inactive"))
        #expect(people["1"]?["archived"] == .bool(false))
        #expect(people["2"] == nil)
        #expect(people["3"]?["status"] == .string("active"))
        #expect(people["3"]?["archived"] == .bool(false))
    }

    @Test(
        "an identity met twice in a run, with required attributes, merges to its last record", arguments: StoreKind.all)
    func requiredWithIdentityMetTwice(kind: StoreKind) async throws {
        let directory = try F.temporaryDirectory()
        let report = try await run(
            #"[{"id": 1, "name": "Ann", "status": "inactive"}, {"id": 1, "name": "Anna"}]"#, kind: kind,
            directory: directory)
        #expect(report.recordErrors.isEmpty)
        #expect(report[entity: "CRMPerson"]?.inserted == 1)
        let people = try contents(kind, directory, "CRMPerson")
        #expect(people["1"]?["name"] == .string("Anna"))
        #expect(people["1"]?["status"] == .string("inactive"))
    }

    @Test("an identity met twice in one record gets defaults once, when it is created")
    func defaultsOnceForIdentityMetTwice() async throws {
        let directory = try F.temporaryDirectory()
        let yaml = """
            rmap: 1
            entities:
              Task:
                attributes:
                  id: int
                  status: { type: string, default: open }
                relationships:
                  subtasks: { to_many: Task, nested: true }
            """
        try await MappedRun.run(
            yaml, [("Task", #"[{"id": 1, "subtasks": [{"id": 2, "status": "done"}, {"id": 2}]}]"#)], kind: .sqlite,
            directory: directory)
        let tasks = try StoreKind.sqlite.open(directory).contents(GraphSchema(model: try F.model(yaml)), "Task")
        #expect(tasks["1"]?["status"] == .string("open"))
        #expect(tasks["2"]?["status"] == .string("done"))
    }

    // MARK: - Nested relationships

    @Test("a replace nested to-many releases the children it no longer lists", arguments: StoreKind.all)
    func nestedToManyReleasesChildren(kind: StoreKind) async throws {
        let directory = try F.temporaryDirectory()
        _ = try await run(
            #"""
            [{"id": 1, "name": "Ann", "projects": [{"id": 10}, {"id": 11}, {"id": 12}]},
             {"id": 2, "name": "Bob", "projects": [{"id": 20}]},
             {"id": 3, "name": "Cy", "projects": [{"id": 30}]}]
            """#, kind: kind, directory: directory)
        func owners() throws -> [String: Value] {
            try contents(kind, directory, "CRMProject").mapValues { $0["owner_id"] ?? .null }
        }

        // Project 12 also arrives on its own: it is released as its row merges, and counted once.
        let shorter = try await run(
            #"[{"id": 1, "projects": [{"id": 10}]}, {"id": 2}]"#, projects: #"[{"id": 12, "title": "Gemini"}]"#,
            kind: kind, directory: directory)
        #expect(shorter[entity: "CRMProject"]?.updated == 2)
        #expect(try owners() == ["10": .int(1), "11": .null, "12": .null, "20": .int(2), "30": .int(3)])

        let emptied = try await run(
            #"[{"id": 1, "projects": []}, {"id": 2, "projects": null}, {"id": 3, "projects": [{"id": 11}]}]"#,
            kind: kind, directory: directory)
        #expect(emptied[entity: "CRMProject"]?.updated == 4)
        #expect(try owners() == ["10": .null, "11": .int(3), "12": .null, "20": .null, "30": .null])
    }

    @Test("a first import releases a child that a later record of its parent no longer lists", arguments: StoreKind.all)
    func nestedToManyReleasesWithinFirstImport(kind: StoreKind) async throws {
        let directory = try F.temporaryDirectory()
        // Ann's second record lists project 10 alone: 11, which her first listed, loses its owner.
        let report = try await MappedRun.run(
            Self.yaml,
            [
                ("CRMProject", "[]"),
                (
                    "CRMPerson",
                    #"""
                    [{"id": 1, "name": "Ann", "projects": [{"id": 10}, {"id": 11}]},
                     {"id": 2, "name": "Bob", "projects": [{"id": 20}]},
                     {"id": 1, "projects": [{"id": 10}]}]
                    """#
                ),
            ], kind: kind, directory: directory)
        #expect(report[entity: "CRMProject"]?.inserted == 3)
        let owners = try contents(kind, directory, "CRMProject").mapValues { $0["owner_id"] ?? .null }
        #expect(owners == ["10": .int(1), "11": .null, "20": .int(2)])
    }

    @Test("a nested to-one set to null clears the stored link; a missing key keeps it", arguments: StoreKind.all)
    func nestedToOneNullClears(kind: StoreKind) async throws {
        let directory = try F.temporaryDirectory()
        _ = try await run(
            #"[{"id": 1, "name": "Ann", "address": {"id": 5, "city": "Oslo"}}]"#, kind: kind, directory: directory)
        #expect(try contents(kind, directory, "CRMPerson")["1"]?["address_id"] == .int(5))

        let missing = try await run(#"[{"id": 1}]"#, kind: kind, directory: directory)
        #expect(missing[entity: "CRMPerson"]?.unchanged == 1)
        #expect(try contents(kind, directory, "CRMPerson")["1"]?["address_id"] == .int(5))

        let cleared = try await run(#"[{"id": 1, "address": null}]"#, kind: kind, directory: directory)
        #expect(cleared[entity: "CRMPerson"]?.updated == 1)
        #expect(try contents(kind, directory, "CRMPerson")["1"]?["address_id"] == .null)
        #expect(try contents(kind, directory, "CRMAddress")["5"]?["city"] == .string("Oslo"))
    }
}

extension RunReport {
    /// The counts of `entity`, if the run reported it.
    subscript(entity name: String) -> EntityRunCounts? {
        entities.first { $0.entity == name }
    }
}

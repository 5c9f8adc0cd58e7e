import Testing

@testable import RMap

/// `required` on the object a run merges from all its records (docs/mapping.md, "Null, missing
/// and defaults"), checked in the store's engine (``RequiredCheck``), in SQLite and PostgreSQL.
@Suite("Required values of merged objects")
struct RequiredCheckTests {
    typealias Nested = NestedRelationshipTests

    static let kinds: [StoreKind] = [.sqlite] + [.postgres]

    /// The error of record `index` of projects.json: project `id`'s title is `said` (null or missing).
    static func error(_ id: Int, _ index: Int, _ said: String) -> RecordError {
        RecordError(
            entity: "CRMProject", identity: "id=\(id)", attribute: "title", keyPath: "title", origin: "projects.json",
            index: index, message: "required attribute is \(said) on a new object")
    }

    @Test(
        "a missing key takes the value another record gives; the record that sends the last null is rejected, and every record of an object none gives it",
        arguments: kinds)
    func mergedObject(kind: StoreKind) async throws {
        let run = try StreamedRun(Nested.model, kind: kind)
        let report = try await run.run([
            "CRMProject": """
            [{"id": 1}, {"id": 1, "title": "A"}, {"id": 2, "title": "B"}, {"id": 2, "title": null},
             {"id": 3}, {"id": 3, "title": null}, {"id": 3}, {"id": 4}, {"id": 4}]
            """
        ])
        #expect(
            report.recordErrors == [
                Self.error(2, 3, "null"), Self.error(3, 5, "null"), Self.error(4, 7, "missing"),
                Self.error(4, 8, "missing"), Self.error(3, 4, "missing"), Self.error(3, 6, "missing"),
            ])
        #expect(try await run.object("CRMProject", 1).values["title"] == .string("A"))
        #expect(try await run.object("CRMProject", 2).values["title"] == .string("B"))
        #expect(try await run.reader().object("CRMProject", identity: [.int(3)]) == nil)
        #expect(try await run.reader().object("CRMProject", identity: [.int(4)]) == nil)
        #expect(Nested.counts(report, "CRMProject") == [9, 2, 6])
    }

    @Test(
        "a record rejected for another reason reports a lacking required value only for an object new to the store that no standing record gives it",
        arguments: kinds)
    func rejectedRecord(kind: StoreKind) async throws {
        let run = try StreamedRun(Nested.model, kind: kind)
        try await run.run(["CRMPerson": #"{"id": 2, "projects": [{"id": 10, "title": "stored"}]}"#])
        // Project 10 is stored, 11 gets its title from a record that stands, 12 is new and lacks it.
        let report = try await run.run([
            "CRMPerson": """
            [{"id": 2, "projects": [{"id": 10}]},
             {"id": 1, "projects": [{"id": 10}, {"id": 11}, {"id": 12, "tasks": [{"id": 100, "done": "x"}]}]}]
            """,
            "CRMProject": #"{"id": 11, "title": "B"}"#,
        ])
        #expect(
            report.recordErrors.map(\.description) == [
                "people.json record 1 (CRMProject id=12): attribute 'title' (key projects.2.title): "
                    + "required attribute is missing on a new object",
                "people.json record 1 (CRMTask id=100): attribute 'done' (key projects.2.tasks.0.done): "
                    + #"cannot read "x" as a bool"#,
            ])
        #expect(try await run.reader().object("CRMPerson", identity: [.int(1)]) == nil)
        #expect(try await run.object("CRMProject", 11).values["title"] == .string("B"))
        #expect(try await run.object("CRMProject", 10).values["title"] == .string("stored"))
        #expect(try await Nested.owner(run, 10) == [2])
    }
}

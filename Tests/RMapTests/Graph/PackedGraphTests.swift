import Foundation
import Testing

@testable import RMap

/// Values and to-many links as `rmap run`'s streamed path stores them and a reader reads them
/// back. (The in-memory graph's packed identity map has no counterpart in a store.)
@Suite("Graph: packed objects")
struct PackedGraphTests {
    typealias F = StoreFixtures

    @Test("every kind of value reads back as written, missing and null apart")
    func valuesRoundTrip() async throws {
        let run = try StreamedRun(F.crm)
        let report = try await run.run([
            "CRMPerson": #"""
            [{"id": -7, "first_name": "Ünïcødé and a longer text than fifteen bytes", "budget": 12.50,
              "admin": false, "score": -2.5e-300, "born_on": "1601-02-28", "seen_at": "0001-01-01T00:00:00Z",
              "tags": ["a", "b"], "raw": {"k": [1, 2.50], "s": "x"}, "homepage": null}]
            """#
        ])
        #expect(!report.hasProblems, "\(report.recordErrors)")
        let person = try await run.object("CRMPerson", -7)
        let values: [String: Value] = [
            "firstName": .string("Ünïcødé and a longer text than fifteen bytes"),
            "budget": .decimal(DecimalNumber("12.50")!), "admin": .bool(false), "score": .double(-2.5e-300),
            "bornOn": .date(LocalDate(year: 1601, month: 2, day: 28)!),
            "seenAt": .datetime(Timestamp(milliseconds: -62_135_596_800_000)),
            "tags": .array([.string("a"), .string("b")]),
            "raw": .json(try JSONReader.parse(#"{"k":[1,2.50],"s":"x"}"#, origin: "test")), "homepage": .null,
        ]
        for (name, value) in values { #expect(person.values[name] == value, "\(name)") }
        #expect(person.values["id"] == .int(-7))
        #expect(person.values["city"] == .null, "a key no payload carried is stored as nothing")
    }

    @Test("a to-many keeps its objects in order, rewritten shorter and longer")
    func linksByRow() async throws {
        // People with ordered nested projects.
        let run = try StreamedRun(OrderedToManyTests.yaml)
        func projects(_ ids: [Int]) -> String {
            #"[{"id": 1, "projects": [\#(ids.map { #"{"id": \#($0)}"# }.joined(separator: ", "))]}]"#
        }
        try await run.run(["CRMPerson": projects([13, 12, 11, 10])])
        #expect(try await run.ids("CRMPerson", 1, "projects") == [13, 12, 11, 10])
        try await run.run(["CRMPerson": projects([10])])
        #expect(try await run.ids("CRMPerson", 1, "projects") == [10], "a shorter list")
        try await run.run(["CRMPerson": projects([10, 11, 12, 13])])
        #expect(try await run.ids("CRMPerson", 1, "projects") == [10, 11, 12, 13], "a longer one")
    }
}

import Testing

@testable import RMap

/// Identities staged in ascending order prove that none came twice (``AscendingIdentities``), and
/// the occurrences are then copied as the objects' rows; any other order merges them by identity.
@Suite("Identities staged in ascending order")
struct AscendingIdentitiesTests {
    /// `email` is required, so that SQLite too keeps the occurrences and merges them after staging.
    static let model = """
        rmap: 1
        entities:
          Item:
            attributes:
              id: int
              name: string
              email: { type: string, required: true }
        """

    /// A stage of one key column of `type`, and rows with only their keys set.
    static func stage(_ types: [AttributeType]) -> StageTable {
        let columns = types.enumerated().map { ColumnLayout(name: "c\($0.offset)", type: $0.element) }
        let table = TableLayout(
            name: "t", rootEntity: "T", columns: columns, roles: columns.map { .attribute($0.name) },
            identity: Array(columns.indices), discriminator: nil)
        return StageTable(table: table, position: 0, assignedRelationships: [], connectionKeys: [], trackedSlots: [])
    }

    static func rows(_ stage: StageTable, _ keys: [[Value]]) -> [[Value]] {
        keys.map { key in
            var row = Array(repeating: Value.null, count: stage.stageColumns.count)
            row.replaceSubrange(stage.firstKey..<(stage.firstKey + key.count), with: key)
            return row
        }
    }

    /// Whether the proof holds after `batches` of keys.
    static func holds(_ types: [AttributeType], _ batches: [[[Value]]]) -> Bool {
        let stage = stage(types)
        var proof = AscendingIdentities(stage)
        for batch in batches { proof.note(rows(stage, batch)) }
        return proof.holds
    }

    @Test("ascending keys hold across batches; a repeat, a step back, a null or mixed kinds end the proof")
    func proof() {
        let ints = { (keys: [Int64]) in keys.map { [Value.int($0)] } }
        #expect(Self.holds([.int], [ints([1, 2, 5]), ints([6, 100])]))
        #expect(Self.holds([.string], [[[.string("a")], [.string("ab")]], [[.string("b")]]]))
        #expect(!Self.holds([.int], [ints([1, 2, 5]), ints([5, 6])]))
        #expect(!Self.holds([.int], [ints([1, 3, 2])]))
        #expect(!Self.holds([.int], [ints([1]), [[.null]]]))
        #expect(!Self.holds([.int], [ints([1]), [[.string("2")]]]))
        // Several keys compare one after the other.
        #expect(
            Self.holds(
                [.int, .string], [[[.int(1), .string("b")], [.int(2), .string("a")], [.int(2), .string("c")]]]))
        #expect(!Self.holds([.int, .string], [[[.int(1), .string("b")], [.int(1), .string("b")]]]))
        // No identity, nothing proven.
        #expect(!Self.holds([], [[[]]]))
    }

    @Test(
        "ascending in each payload but repeated across them: merged by identity, the last record wins",
        arguments: StoreKind.all)
    func repeatedAcrossPayloads(kind: StoreKind) async throws {
        let run = try StreamedRun(Self.model, kind: kind)
        try await run.run([
            "Item":
                #"[{"id": 1, "name": "a1", "email": "1@a"}, {"id": 2, "name": "a2", "email": "2@a"}, {"id": 3, "name": "a3", "email": "3@a"}]"#,
            "Item":
                #"[{"id": 2, "email": "2@b"}, {"id": 3, "name": null, "email": "3@b"}, {"id": 4, "name": "b4", "email": "4@b"}]"#,
        ])
        let items = try await run.reader().objects(of: "Item").fetchAll()
        let byID = Dictionary(
            uniqueKeysWithValues: items.map { ($0.values["id"], [$0.values["name"], $0.values["email"]]) })
        #expect(byID.count == 4)
        #expect(byID[.int(1)] == [.string("a1"), .string("1@a")])
        #expect(byID[.int(2)] == [.string("a2"), .string("2@b")])
        #expect(byID[.int(3)] == [.null, .string("3@b")])
        #expect(byID[.int(4)] == [.string("b4"), .string("4@b")])
    }

    @Test(
        "ascending through the whole run: each record is its object, and a later run updates them",
        arguments: StoreKind.all)
    func ascendingRun(kind: StoreKind) async throws {
        let run = try StreamedRun(Self.model, kind: kind)
        let payload = { (name: String) in
            "["
                + (1...300).map { #"{"id": \#($0), "name": "\#(name)\#($0)", "email": "\#($0)@x"}"# }.joined(
                    separator: ", ") + "]"
        }
        let first = try await run.run(["Item": payload("a")])
        #expect(first.entities.first { $0.entity == "Item" }?.inserted == 300)
        let second = try await run.run(["Item": payload("b")])
        #expect(second.entities.first { $0.entity == "Item" }?.updated == 300)
        let names = try await run.reader().objects(of: "Item").fetchAll().map { $0.values["name"] }
        #expect(Set(names) == Set((1...300).map { Value.string("b\($0)") }))
    }
}

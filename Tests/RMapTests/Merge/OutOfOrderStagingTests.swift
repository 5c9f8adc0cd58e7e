import Testing

@testable import RMap

/// Identities staged at random: the rows merge once the occurrences are in (``StagingKeyOrder``),
/// and the last occurrence that carried a key still wins, missing keys never overwrite, `null` does.
@Suite("Identities staged out of order")
struct OutOfOrderStagingTests {
    static let model = """
        rmap: 1
        entities:
          Item:
            attributes:
              id: int
              name: string
              note: string
        """
    /// Enough objects that keys at random would miss the engine's cache (``StagingKeyOrder``).
    static let count = 70_000

    static func payload(_ ids: [Int], _ fields: (Int) -> String) -> String {
        "[" + ids.map { #"{"id": \#($0)\#(fields($0))}"# }.joined(separator: ", ") + "]"
    }

    @Test("in order, then at random, then in order again: each object takes its last values")
    func lastOccurrenceWins() async throws {
        let run = try StreamedRun(Self.model)
        try await run.run([
            "Item": Self.payload(Array(1...Self.count)) { _ in #", "name": "a", "note": "x""# },
            "Item": Self.payload(Array(1...Self.count).shuffled()) { id in
                (id % 2 == 0 ? #", "name": "b""# : "") + (id % 3 == 0 ? #", "note": null"# : "")
            },
            "Item": Self.payload(Array(1...100)) { _ in #", "name": "c""# },
        ])
        let items = try await run.reader().objects(of: "Item").fetchAll()
        #expect(items.count == Self.count)
        var wrong: [Int64] = []
        for item in items {
            guard case .int(let id) = item.values["id"] else {
                Issue.record("no id: \(item)")
                continue
            }
            let name = id <= 100 ? "c" : id % 2 == 0 ? "b" : "a"
            if item.values["name"] != .string(name) || item.values["note"] != (id % 3 == 0 ? .null : .string("x")) {
                wrong.append(id)
            }
        }
        let firstWrong = Array(wrong.prefix(10))
        #expect(firstWrong.isEmpty, "objects with other values")
    }

    @Test("rows in order, or in a few interleaved ascending runs, merge as they come; rows at random wait")
    func judgesBatches() {
        var random = SystemRandomNumberGenerator()
        let batches = { (keys: (Int) -> Int64) in
            (0..<100).map { batch in (0..<4096).map { [Value.int(keys(batch * 4096 + $0))] } }
        }
        var sorted = StagingKeyOrder(keyPosition: 0)
        var sparse = StagingKeyOrder(keyPosition: 0)
        var interleaved = StagingKeyOrder(keyPosition: 0)
        var shuffled = StagingKeyOrder(keyPosition: 0)
        let admitted = (
            sorted: batches { Int64($0) }.allSatisfy { sorted.admits($0) },
            sparse: batches { Int64($0) * 1000 }.allSatisfy { sparse.admits($0) },
            interleaved: batches { Int64($0 % 4 * 1_000_000 + $0 / 4) }.allSatisfy { interleaved.admits($0) },
            shuffled: batches { _ in Int64.random(in: 1...409_600, using: &random) }.map { shuffled.admits($0) }
        )
        #expect(admitted.sorted && admitted.sparse && admitted.interleaved)
        // The first batches land in a table still small enough for the cache; later ones wait.
        #expect(admitted.shuffled.first == true)
        #expect(admitted.shuffled.suffix(80).allSatisfy { !$0 })
        #expect(shuffled.isOutOfOrder)
    }
}

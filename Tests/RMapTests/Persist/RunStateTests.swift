import Foundation
import Testing

@testable import RMap

/// Run state (`_rmap_state`): written by a run's merge in its transaction, read before the next run,
/// in every built-in store.
@Suite("Run state")
struct RunStateTests {
    typealias F = StoreFixtures

    private func update(_ scope: String, _ entries: [String: JSONValue], clearing: Bool = false) -> RunStateUpdate {
        var update = RunStateUpdate()
        if clearing { update.clear(scope: scope) }
        for (key, value) in entries { update.set(scope: scope, key: key, to: value) }
        return update
    }

    /// A run's merge into the store of `kind` in `directory` that writes `request`'s run state.
    private func write(_ request: WriteRequest, _ kind: StoreKind, _ directory: URL) throws {
        let store = try kind.open(directory)
        _ = try withExtendedLifetime(store) {
            try EmptyMerge.write(request, model: try F.model(), on: try store.engine())
        }
    }

    @Test("entries written with a run read back by scope, replaced by key", arguments: StoreKind.all)
    func writeAndRead(kind: StoreKind) throws {
        let directory = try F.temporaryDirectory()
        #expect(try kind.open(directory).runState(scope: "cursor").isEmpty)
        var first = update("cursor", ["CRMPerson": .string("2024-01-01T00:00:00Z"), "CRMProject": .number("7")])
        first.merge(update("singer", ["tap": .object(JSONObject([("bookmark", .number("3"))]))]))
        try write(WriteRequest(runState: first), kind, directory)

        let cursors = try kind.open(directory).runState(scope: "cursor")
        #expect(
            cursors.mapValues(\.value) == ["CRMPerson": .string("2024-01-01T00:00:00Z"), "CRMProject": .number("7")])
        #expect(cursors["CRMPerson"]?.updatedAt.hasSuffix("Z") == true)
        #expect(try kind.open(directory).runState(scope: "singer")["tap"]?.value.object?["bookmark"] == .number("3"))

        let second = update("cursor", ["CRMPerson": .string("2024-02-01T00:00:00Z")])
        try write(WriteRequest(runState: second), kind, directory)
        let after = try kind.open(directory).runState(scope: "cursor")
        #expect(after["CRMPerson"]?.value == .string("2024-02-01T00:00:00Z"))
        #expect(after["CRMProject"]?.value == .number("7"))

        try write(
            WriteRequest(runState: update("cursor", ["CRMProject": .number("9")], clearing: true)), kind, directory)
        #expect(try kind.open(directory).runState(scope: "cursor").mapValues(\.value) == ["CRMProject": .number("9")])
        #expect(try kind.open(directory).runState(scope: "singer").count == 1)
    }

    @Test(
        "entries given as JSON text read back as values; a later value or text replaces either",
        arguments: StoreKind.all)
    func textEntries(kind: StoreKind) throws {
        let directory = try F.temporaryDirectory()
        var first = update("payload", ["b": .string("value")])
        first.set(scope: "payload", key: "a", json: #"{"objects":[1,2]}"#)
        first.set(scope: "payload", key: "b", json: "[3]")
        try write(WriteRequest(runState: first), kind, directory)
        let stored = try kind.open(directory).runState(scope: "payload").mapValues(\.value)
        #expect(
            stored == [
                "a": .object(JSONObject([("objects", .array([.number("1"), .number("2")]))])),
                "b": .array([.number("3")]),
            ])

        var second = RunStateUpdate()
        second.set(scope: "payload", key: "a", json: "4")
        second.merge(update("payload", ["a": .bool(true)]))
        #expect(second.serializedEntries.map(\.json) == ["true"])
        try write(WriteRequest(runState: second), kind, directory)
        #expect(try kind.open(directory).runState(scope: "payload")["a"]?.value == .bool(true))
        var replaced = RunStateUpdate()
        replaced.set(scope: "payload", key: "a", json: "1")
        replaced.set(scope: "payload", key: "a", to: .null)
        #expect(replaced.serializedEntries.map(\.json) == ["null"])
    }

    @Test("a dry run and a failed write advance no run state", arguments: StoreKind.all)
    func failedRunsAdvanceNothing(kind: StoreKind) throws {
        let directory = try F.temporaryDirectory()
        let kept = update("cursor", ["CRMPerson": .string("old")])
        try write(WriteRequest(runState: kept), kind, directory)
        let advanced = update("cursor", ["CRMPerson": .string("new")])

        try write(WriteRequest(dryRun: true, runState: advanced), kind, directory)
        #expect(try kind.open(directory).runState(scope: "cursor")["CRMPerson"]?.value == .string("old"))

        struct CommitFailed: Error, Equatable {}
        let store = try kind.open(directory)
        let failing = RecordingEngine(try store.engine())
        failing.willCommitWrite = { _ in throw CommitFailed() }
        #expect(throws: CommitFailed()) {
            try EmptyMerge.write(WriteRequest(runState: advanced), model: try F.model(), on: failing)
        }
        withExtendedLifetime(store) {}
        #expect(try kind.open(directory).runState(scope: "cursor")["CRMPerson"]?.value == .string("old"))
    }
}

import Foundation
import RMapSQLite
import Testing

@testable import RMap

/// `rmap diff` after runs in which two sources claimed one one-to-one (docs/mapping.md,
/// "Inverses"): the store's holder column is its own, so the diff sends nothing for it, and a
/// local edit of the key sends the key alone.
@Suite("rmap diff after a one-to-one claimed twice")
struct OneToOneDiffTests {
    /// ``OneToOneClaimsTests/model`` read from files.
    static let mapping = OneToOneClaimsTests.model.replacingOccurrences(
        of: "rmap: 1\n", with: "rmap: 1\nsource: { plugin: file, path: \"{collection}.json\" }\n")

    @Test("no change after the runs; a local edit of the key is the only request")
    func diffAfterClaims() async throws {
        let directory = try StoreFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: directory.appendingPathComponent(name))
        }
        try write("map.yml", Self.mapping)
        try write("desks.json", #"[{"id": 7}, {"id": 8}]"#)
        let store = ["--store", "sqlite:s.sqlite"]
        for employees in [#"[{"id": 1, "desk_id": 7}, {"id": 2, "desk_id": 7}]"#, #"[{"id": 1, "desk_id": 7}]"#] {
            try write("employees.json", employees)
            let run = try await CLIRunner.run(["run", "map.yml"] + store, in: directory)
            #expect(run.status == 0, "\(run.stderr)")
        }
        let diff = try await CLIRunner.run(["diff", "map.yml"] + store, in: directory)
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdout == "0 requests: 0 POST, 0 PUT, 0 DELETE\n")
        let model = try MappingLoader(catalog: PluginRegistry.standard().catalog).load([
            directory.appendingPathComponent("map.yml").path
        ])
        let sync = SyncStore(
            store: try SQLiteStore(path: directory.appendingPathComponent("s.sqlite").path), model: model)
        _ = try sync.update(try #require(try sync.object("Employee", identity: [.int(2)])), ["deskId": .int(8)])
        let edited = try await CLIRunner.run(["diff", "map.yml"] + store, in: directory)
        #expect(
            edited.stdout
                == "PUT /employees/2.json {\"employee\":{\"desk_id\":8}}\n1 request: 0 POST, 1 PUT, 0 DELETE\n")
    }
}

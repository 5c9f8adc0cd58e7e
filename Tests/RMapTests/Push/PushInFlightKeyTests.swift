import Foundation
import RMap
import RMapSQLite
import Testing

extension FaultServerSuites {
    /// A server that answers `409` while an idempotency key is still being processed, as Stripe
    /// does (the fault server's `/inflight` route, https://docs.stripe.com/api/idempotent_requests),
    /// and `rmap push` (the binary ``CLIRunner`` finds) against it (issue #30, item 2).
    @Suite("Push with a key still in flight")
    struct PushInFlightKeyTests {
        @Test("a POST answered 409 while its key is in flight goes again with the same key: one object")
        func conflictWaitsForTheKey() async throws {
            let site = try TestServers.fault()
            let marker = RMapTests.marker()
            let directory = try TemporaryDirectory()
            // Each creation takes 12 s; the client gives up after 1 s, so the first push leaves it in
            // flight, and the second still meets it after waiting seconds for a process slot on a
            // loaded machine (with 4 s it once came too late); its six waits last 16 to 32 s.
            try directory.write(
                "items.yml",
                """
                rmap: 1
                source: { plugin: http, site: \(site.absoluteString)/inflight/12000/\(marker), retries: 0, timeout: 1 }
                entities:
                  Item:
                    attributes: { id: int, name: string }
                """)
            let store = ["--store", "sqlite:items.sqlite"]
            let run = try await CLIRunner.run(["run", "items.yml", "--quiet"] + store, in: directory.url)
            #expect(run.status == 0, "\(run.stderr)")
            let path = directory.url.appendingPathComponent("items.sqlite").path
            try SQLiteConnection(path: path).execute("INSERT INTO items (id, name) VALUES (-1, 'Ada')")

            var pushes: [CLIResult] = []
            while pushes.last?.status != 0, pushes.count < 4 {
                pushes.append(try await CLIRunner.run(["push", "items.yml"] + store, in: directory.url))
            }
            #expect(pushes.map(\.status) == [1, 0], "\(pushes.map(\.stderr))")
            #expect(pushes.last?.stderr == "push: 1 sent, 1 acknowledged, 0 pending\n")

            let counts = try await Plain.json(
                site.appendingPathComponent("_inflight").appending(queryItems: [
                    URLQueryItem(name: "collection", value: "\(marker)/items")
                ]))
            #expect(counts.object?["conflicts"] != .number("0"), "the second push met the key in flight: \(counts)")
            #expect(counts.object?["created"] == .number("1") && counts.object?["replays"] == .number("1"))
            let posts = try await Plain.requests(site, containing: marker).filter { $0["method"]?.string == "POST" }
            let keys = Set(posts.compactMap { $0["headers"]?.object?["idempotency-key"]?.string })
            #expect(posts.count >= 3 && keys.count == 1, "\(posts.count) POSTs, keys \(keys)")
            let items = try await Plain.json(site.appendingPathComponent("inflight/0/\(marker)/items.json"))
            #expect(items.array?.compactMap { $0.object?["name"]?.string } == ["Ada"])
            let rows = try SQLiteConnection(path: path).query("SELECT id, name FROM items")
            #expect(rows == [[.integer(1), .text("Ada")]])
        }
    }
}

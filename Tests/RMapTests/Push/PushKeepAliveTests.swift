import Foundation
import RMap
import RMapHTTP
import RMapSQLite
import Testing

extension FaultServerSuites {
    /// Pushes of 1,200 changes with `--jobs 16` to the fault server's pass-through routes
    /// (`/rails/...`, which count the TCP connections and keep `POST` answers by idempotency key).
    @Suite("Push at network speed")
    struct PushKeepAliveTests {
        /// A store of 400 items edited, 200 deleted and 600 new, whose entity goes to `/rails/<marker>`.
        struct Fixture {
            let site: URL
            let marker: String
            let model: MappingModel
            let sync: SyncStore
            let path: String
            let directory: URL

            /// The model of items at the fault server's `/rails/<marker>`.
            static func model(site: URL, marker: String) throws -> MappingModel {
                let registry = PluginRegistry()
                registry.registerHTTP()
                return try MappingLoader(catalog: registry.catalog).load(documents: [
                    (
                        "items.yml",
                        """
                        rmap: 1
                        source: { plugin: http, site: \(site.absoluteString)/rails/\(marker), retries: 0 }
                        entities:
                          Item:
                            attributes: { id: int, name: string }
                        """
                    )
                ])
            }

            init() throws {
                site = try TestServers.fault()
                marker = RMapTests.marker()
                model = try Self.model(site: site, marker: marker)
                directory = try StoreFixtures.temporaryDirectory()
                path = directory.appendingPathComponent("items.sqlite").path
                let store = try SQLiteStore(path: path)
                try ServerRows.write(
                    (1...600).map { ("Item", ["id": .int(Int64($0)), "name": .string("Item \($0)")]) }, model: model,
                    into: store)
                let connection = try SQLiteConnection(path: path)
                try connection.execute("UPDATE items SET name = name || ' (edited)' WHERE id <= 400")
                try connection.execute("DELETE FROM items WHERE id > 400")
                try connection.execute(
                    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 600) "
                        + "INSERT INTO items (id, name) SELECT -i, 'New ' || i FROM n")
                sync = SyncStore(store: store, model: model)
            }

            /// The logged requests of this fixture, and how many connections carried them.
            func server() async throws -> (requests: [JSONObject], connections: Int) {
                let counts = try await Plain.json(site.appendingPathComponent("_connections"))
                var connections = 0
                if case .number(let text)? = counts.object?["rails/\(marker)"] { connections = Int(text) ?? 0 }
                return (try await Plain.requests(site, containing: marker), connections)
            }

            /// Each logged request as `METHOD path key`, with how often it arrived.
            func arrivals(_ requests: [JSONObject]) -> [String: Int] {
                var counts: [String: Int] = [:]
                for request in requests {
                    let key = request["headers"]?.object?["idempotency-key"]?.string ?? ""
                    let line = "\(request["method"]?.string ?? "") \(request["path"]?.string ?? "") \(key)"
                    counts[line, default: 0] += 1
                }
                return counts
            }

            /// The new items as the store holds them now: their identities.
            func created() throws -> [Int64] {
                try SQLiteConnection(path: path).query("SELECT id FROM items WHERE name LIKE 'New %'").compactMap {
                    if case .integer(let id)? = $0.first { return id }
                    return nil
                }
            }
        }

        @Test("1,200 changes with 16 jobs: each request exactly once, over at most 16 kept-alive connections")
        func exactlyOnceOverKeptConnections() async throws {
            let fixture = try Fixture()
            defer { try? FileManager.default.removeItem(at: fixture.directory) }
            #expect(try fixture.sync.plan().requests.count == 1_200)

            let report = try await Pusher(model: fixture.model, jobs: 16).push(fixture.sync)

            #expect(report == PushReport(sent: 1_200, acknowledged: 1_200, pending: []))
            #expect(try fixture.sync.changes().isEmpty)
            let (requests, connections) = try await fixture.server()
            let arrivals = fixture.arrivals(requests)
            #expect(requests.count == 1_200 && arrivals.count == 1_200 && arrivals.values.allSatisfy { $0 == 1 })
            let methods = Dictionary(grouping: requests) { $0["method"]?.string ?? "" }.mapValues(\.count)
            #expect(methods == ["PUT": 400, "DELETE": 200, "POST": 600])
            #expect((1...16).contains(connections), "1,200 requests over \(connections) connections")
            let created = try fixture.created()
            #expect(created.count == 600 && Set(created).count == 600 && created.allSatisfy { $0 > 100_000 })
        }

        @Test("answers lost mid-push: the next push resends with the same keys and nothing is created twice")
        func lostAnswersReconcile() async throws {
            let fixture = try Fixture()
            defer { try? FileManager.default.removeItem(at: fixture.directory) }

            let first = try await Pusher(
                model: fixture.model, jobs: 16, transport: FaultyTransport.losingAnswers(ofFirstPOSTs: 300)
            ).push(fixture.sync)
            #expect(first.pending.count == 300 && first.acknowledged == 900)
            let second = try await Pusher(model: fixture.model, jobs: 16).push(fixture.sync)
            #expect(second == PushReport(sent: 300, acknowledged: 300, pending: []))

            let (requests, _) = try await fixture.server()
            let posts = requests.filter { $0["method"]?.string == "POST" }
            let keys = posts.compactMap { $0["headers"]?.object?["idempotency-key"]?.string }
            #expect(posts.count == 900 && keys.count == 900 && Set(keys).count == 600)
            let created = try fixture.created()
            #expect(created.count == 600 && Set(created).count == 600)
            #expect(try fixture.sync.changes().isEmpty)
        }
    }
}

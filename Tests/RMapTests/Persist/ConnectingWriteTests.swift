import Foundation
import Synchronization
import Testing

@testable import RMap

/// A run's store writes the tables whose rows hold no links while the graph
/// is being connected, and the tables holding links (foreign-key columns,
/// join tables) only once connecting is over.
@Suite("Persist: writing while connecting")
struct ConnectingWriteTests {
    typealias F = StoreFixtures

    @Test("people are written while connecting runs; projects, with their owner_id, after it", arguments: StoreKind.all)
    func rowsWithoutLinksGoFirst(kind: StoreKind) throws {
        let directory = try F.temporaryDirectory()
        let schema = try F.schema()
        let graph = ObjectGraph(schema: schema)
        let ann = F.add(graph, "CRMAdmin", ["id": .int(1), "firstName": .string("Ann"), "level": .int(3)])
        let project = F.add(graph, "CRMProject", ["id": .int(10), "name": .string("Apollo")])
        let store = FaultyStore(try kind.open(directory), failing: "none")
        let backend = try #require(store.backend as? FaultyBackend)

        var writtenWhileConnecting: [String] = []
        _ = try store.write(graph, request: WriteRequest()) {
            // The people table holds no link: it is written meanwhile, on another thread.
            let deadline = Date().addingTimeInterval(30)
            while !backend.rowWrites.withLock({ $0.contains("people") }), Date() < deadline { usleep(1000) }
            writtenWhileConnecting = backend.rowWrites.withLock { $0 }
            F.link(project, "owner", [ann])
            F.link(ann, "projects", [project])
        }

        #expect(writtenWhileConnecting.contains("people"))
        #expect(!writtenWhileConnecting.contains("projects"))
        let projects = try kind.open(directory).contents(schema, "CRMProject")
        #expect(projects["10"]?["owner_id"] == .int(1))
        #expect(try kind.open(directory).contents(schema, "CRMPerson")["1"]?["first_name"] == .string("Ann"))
    }

    @Test("alongside returns the work's result, or rethrows its error, after both closures ran")
    func alongsideJoinsBoth() throws {
        let ran = Mutex(false)
        #expect(try alongside({ 6 * 7 }, meanwhile: { ran.withLock { $0 = true } }) == 42)
        #expect(ran.withLock { $0 })

        struct Failure: Error {}
        var meanwhile = false
        #expect(throws: Failure.self) {
            try alongside({ throw Failure() }, meanwhile: { meanwhile = true })
        }
        #expect(meanwhile)
    }
}

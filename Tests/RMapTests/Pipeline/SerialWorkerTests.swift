import Foundation
import Testing

@testable import RMap

/// The one serial executor: jobs one at a time, in order, entered from async code
/// (`run`) or from a dedicated thread (`sync`, `submit` with back-pressure).
@Suite("SerialWorker: one job at a time, in order")
struct SerialWorkerTests {
    /// Jobs that note their order and whether another job ran at the same time.
    final class Journal: Sendable {
        private let state = Locked((order: [Int](), running: 0, overlapped: false))

        func job(_ number: Int) {
            state.withLock { state in
                state.running += 1
                state.overlapped = state.overlapped || state.running > 1
            }
            usleep(200)
            state.withLock { state in
                state.order.append(number)
                state.running -= 1
            }
        }

        var order: [Int] { state.withLock { $0.order } }
        var overlapped: Bool { state.withLock { $0.overlapped } }
    }

    @Test("`run` from concurrent tasks runs each job alone and returns its result or its error")
    func asyncEntry() async throws {
        let worker = SerialWorker(label: "test.run")
        let journal = Journal()
        let results = await withTaskGroup(of: Int.self) { group in
            for number in 0..<32 {
                group.addTask {
                    await worker.run {
                        journal.job(number)
                        return number * 2
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.sorted() == (0..<32).map { $0 * 2 })
        #expect(Set(journal.order) == Set(0..<32))
        #expect(!journal.overlapped)

        struct Failure: Error {}
        await #expect(throws: Failure.self) { try await worker.run { () throws(Failure) in throw Failure() } }
    }

    @Test("`submit` and `sync` from a dedicated thread run in the order they came, after the jobs before them")
    func syncEntryKeepsOrder() async throws {
        let worker = SerialWorker(label: "test.sync")
        let journal = Journal()
        let seen = await DedicatedThread.run {
            for number in 0..<10 { worker.submit { journal.job(number) } }
            return worker.sync { journal.order }
        }.get()
        #expect(seen == Array(0..<10))
        #expect(!journal.overlapped)
    }

    @Test("`submit` blocks its thread while `pending` jobs wait, and returns once one is done")
    func submitBackPressure() async throws {
        let worker = SerialWorker(label: "test.pending", pending: 1)
        let gate = DispatchSemaphore(value: 0)
        let submitted = Locked(0)
        let producer = Task {
            await DedicatedThread.run {
                for _ in 0..<3 {
                    worker.submit { gate.wait() }
                    submitted.withLock { $0 += 1 }
                }
            }
        }
        // The first job holds the worker at the gate: the second submit cannot return.
        let deadline = ContinuousClock.now + .seconds(60)
        while submitted.withLock({ $0 }) == 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        try await Task.sleep(for: .milliseconds(200))
        #expect(submitted.withLock { $0 } == 1)
        for _ in 0..<3 { gate.signal() }
        _ = await producer.value
        #expect(submitted.withLock { $0 } == 3)
        await worker.run {}
    }
}

/// Payloads reach the mapper through one mapping task: each delivery is mapped whole before
/// the next, and a source's delivery returns once its payload is mapped.
@Suite("MappingSink: the mapping task")
struct MappingSinkTests {
    static let yaml = """
        rmap: 1
        entities:
          Item:
            attributes: { id: int, source: int }
        """

    @Test("concurrent sources' payloads are mapped one at a time; each delivery returns once mapped")
    func deliveriesAreSerialAndAwaited() async throws {
        let schema = GraphSchema(model: try StoreFixtures.model(Self.yaml))
        let sink = MappingSink(mapper: RecordMapper(checking: schema, transformers: [:]))
        let counts = try await withThrowingTaskGroup(of: [Int].self) { group in
            for source in 0..<8 {
                group.addTask {
                    var counts: [Int] = []
                    for page in 0..<25 {
                        let id = source * 100 + page
                        let json = try ModelFixtures.json(#"[{"id": \#(id), "source": \#(source)}]"#)
                        let payload = Payload(origin: "s", entity: "Item", body: .document(json))
                        let (count, identities) = try await sink.deliverIdentified(payload)
                        counts.append(count.records)
                        // Mapped before the delivery returned.
                        #expect(identities == [IdentityKey([.int(Int64(id))])])
                    }
                    return counts
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // Serial mapping: the running counts the deliveries saw are 1...200, each once.
        #expect(counts.flatMap { $0 }.sorted() == Array(1...200))
        // One source's payloads were mapped in the order it delivered them.
        for sourceCounts in counts { #expect(sourceCounts == sourceCounts.sorted()) }
        #expect(await sink.report.entities["Item"]?.fetched == 200)
    }
}

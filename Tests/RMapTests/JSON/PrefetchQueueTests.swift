import Foundation
import Testing

@testable import RMap

/// ``PrefetchQueue``'s hand-back (the groups a consumer is done with are freed by the producer's thread),
/// and when its producer counts as ahead.
@Suite("Prefetch queue")
struct PrefetchQueueTests {
    /// Records the thread that frees it.
    final class Tracked: Sendable {
        let freedOn: Locked<[pthread_t]>

        init(freedOn: Locked<[pthread_t]>) {
            self.freedOn = freedOn
        }

        deinit {
            let thread = pthread_self()
            freedOn.withLock { $0.append(thread) }
        }
    }

    @Test("the groups the consumer gives back are freed by the producer's thread")
    func givenBackGroupsFreedByProducer() throws {
        let queue = PrefetchQueue<Tracked>(capacity: 2)
        let freedOn = Locked<[pthread_t]>([])
        let producerThread = Locked<pthread_t?>(nil)
        let producer = Thread {
            producerThread.withLock { $0 = pthread_self() }
            for _ in 0..<100 {
                do { try queue.put([Tracked(freedOn: freedOn)], cost: 1) } catch { break }
            }
            queue.finish(throwing: nil)
        }
        producer.start()
        var taken = 0
        var consumed: [Tracked] = []
        while let group = try queue.next(givingBack: consume consumed) {
            taken += group.count
            consumed = group
        }
        queue.close()
        let producerID = try #require(producerThread.withLock { $0 })
        let byProducer = freedOn.withLock { $0.count { pthread_equal($0, producerID) != 0 } }
        #expect(taken == 100)
        // Only the groups given back after the producer's last put (at most the queue's
        // capacity, and the one being consumed) are left to the consumer.
        #expect(byProducer >= 96, "\(byProducer) of 100 freed by the producer")
    }

    @Test("the producer is ahead while the group the consumer works on and those queued fill half the queue")
    func aheadCountsTheConsumersGroup() throws {
        let queue = PrefetchQueue<Int>(capacity: 100)
        #expect(!queue.isAhead)
        try queue.put([1], cost: 60)
        #expect(queue.isAhead)
        // One large group taken: the consumer has 60 of work left, so preparing more is not waited for.
        #expect(try queue.next() == [1])
        #expect(queue.isAhead)
        try queue.put([2], cost: 10)
        #expect(try queue.next(givingBack: [1]) == [2])
        #expect(!queue.isAhead, "10 held, nothing queued")
        try queue.put([3], cost: 45)
        #expect(queue.isAhead, "10 held and 45 queued")
    }
}

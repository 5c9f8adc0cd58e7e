import Foundation

/// Hands groups of parsed items (and what the reading thread prepared from
/// them) from the thread that reads a payload file to the thread that
/// consumes them, holding groups of a total cost (the bytes of JSON they were
/// parsed from) of at most ``capacity``, and always at least one.
///
/// The producer blocks in ``put(_:cost:)`` while the queue is full and the consumer
/// blocks in ``next()`` while it is empty; neither spins. The consumer calls
/// ``close()`` when it stops for any reason: a producer waiting in or calling
/// ``put(_:cost:)`` then gets ``Closed`` and unwinds, and ``close()`` returns only
/// once the producer has called ``finish(throwing:)``, that is, after it has
/// released its file and parser.
///
/// Every stored property is read and written only while holding `condition`,
/// which is what makes the `@unchecked Sendable` sound.
final class PrefetchQueue<Element: Sendable>: @unchecked Sendable {
    /// Thrown to the producer once the consumer has stopped.
    struct Closed: Error {}

    /// The cost of the groups the queue holds before ``put(_:cost:)`` blocks.
    let capacity: Int
    private let condition = NSCondition()
    private var groups: [(items: [Element], cost: Int)] = []
    private var queuedCost = 0
    private var finished = false
    private var closed = false
    private var failure: (any Error)?

    /// Creates a queue that holds groups costing `capacity` in all (and one group of any cost).
    init(capacity: Int) {
        self.capacity = capacity
    }

    // MARK: - Producer

    /// Appends a group of some cost, waiting while it would not fit beside the
    /// groups queued; an empty group only checks that the consumer is still there.
    ///
    /// - Throws: ``Closed`` once the consumer has stopped.
    func put(_ group: [Element], cost: Int) throws(Closed) {
        condition.lock()
        defer { condition.unlock() }
        while !closed && !group.isEmpty && !groups.isEmpty && queuedCost + cost > capacity { condition.wait() }
        if closed { throw Closed() }
        guard !group.isEmpty else { return }
        groups.append((group, cost))
        queuedCost += cost
        condition.broadcast()
    }

    /// Ends the sequence after the groups already put, with `error` if given.
    /// The producer calls this last, after releasing its resources.
    func finish(throwing error: (any Error)?) {
        condition.lock()
        defer { condition.unlock() }
        finished = true
        failure = error
        condition.broadcast()
    }

    /// True while the groups queued cost at least half the capacity: the producer is ahead.
    var isHalfFull: Bool {
        condition.lock()
        defer { condition.unlock() }
        return queuedCost * 2 >= capacity
    }

    // MARK: - Consumer

    /// The next group, waiting for the producer when none is ready.
    ///
    /// - Returns: `nil` at the end of the sequence.
    /// - Throws: the producer's error, once every group put before it has been taken.
    func next() throws -> [Element]? {
        condition.lock()
        defer { condition.unlock() }
        while groups.isEmpty && !finished { condition.wait() }
        if !groups.isEmpty {
            condition.broadcast()
            let group = groups.removeFirst()
            queuedCost -= group.cost
            return group.items
        }
        if let failure { throw failure }
        return nil
    }

    /// Stops the producer and waits until it has finished, dropping the groups not taken.
    func close() {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        groups.removeAll()
        condition.broadcast()
        while !finished { condition.wait() }
    }
}

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
/// Both sides are threads of their own (the file's reader, and the mapping task's
/// ``SerialWorker`` or a ``DedicatedThread``), never tasks of the cooperative pool.
/// The state is read and written only while holding `condition` (``Confined``).
final class PrefetchQueue<Element: Sendable>: Sendable {
    /// Thrown to the producer once the consumer has stopped.
    struct Closed: Error {}

    /// What the two threads share.
    private struct State {
        var groups: [(items: [Element], cost: Int)] = []
        /// Groups the consumer is done with, for the producer to free.
        var spent: [[Element]] = []
        var queuedCost = 0
        var finished = false
        var closed = false
        /// The cost of the group the consumer works on (0 once it asks for the next).
        var held = 0
        var failure: (any Error)?
    }

    /// The cost of the groups the queue holds before ``put(_:cost:)`` blocks.
    let capacity: Int
    private let condition = NSCondition()
    private let shared = Confined(State())

    /// Creates a queue that holds groups costing `capacity` in all (and one group of any cost).
    init(capacity: Int) {
        self.capacity = capacity
    }

    // MARK: - Producer

    /// Appends a group of some cost, waiting while it would not fit beside the
    /// groups queued; an empty group only checks that the consumer is still there.
    /// The groups the consumer gave back (``next(givingBack:)``) are freed here, on the
    /// producer's thread, once the lock is released.
    ///
    /// - Throws: ``Closed`` once the consumer has stopped.
    func put(_ group: [Element], cost: Int) throws(Closed) {
        _ = try append(group, cost: cost)  // the spent groups it returns are freed here, unlocked
    }

    /// ``put(_:cost:)`` under the lock; returns the spent groups, to be freed outside it.
    private func append(_ group: [Element], cost: Int) throws(Closed) -> [[Element]] {
        condition.lock()
        defer { condition.unlock() }
        let spent = shared.value.spent
        shared.value.spent = []
        while !shared.value.closed && !group.isEmpty && !shared.value.groups.isEmpty
            && shared.value.queuedCost + cost > capacity
        {
            condition.wait()
        }
        if shared.value.closed { throw Closed() }
        guard !group.isEmpty else { return spent }
        shared.value.groups.append((group, cost))
        shared.value.queuedCost += cost
        condition.broadcast()
        return spent
    }

    /// Ends the sequence after the groups already put, with `error` if given.
    /// The producer calls this last, after releasing its resources.
    func finish(throwing error: (any Error)?) {
        condition.lock()
        defer { condition.unlock() }
        shared.value.finished = true
        shared.value.failure = error
        condition.broadcast()
    }

    /// True while the groups queued and the one the consumer works on cost at least half the
    /// capacity: the producer is ahead, and work it takes over from the consumer is not waited for.
    var isAhead: Bool {
        condition.lock()
        defer { condition.unlock() }
        return (shared.value.queuedCost + shared.value.held) * 2 >= capacity
    }

    // MARK: - Consumer

    /// The next group, waiting for the producer when none is ready.
    ///
    /// - Parameter consumed: the group taken before, which the consumer is done with: the
    ///   producer's thread frees it at its next ``put(_:cost:)``, outside the lock. Its items
    ///   were allocated there, and their many small blocks go back to that thread's allocator
    ///   caches instead of costing the consumer's thread their frees.
    /// - Returns: `nil` at the end of the sequence.
    /// - Throws: the producer's error, once every group put before it has been taken.
    func next(givingBack consumed: consuming [Element] = []) throws -> [Element]? {
        condition.lock()
        defer { condition.unlock() }
        if !consumed.isEmpty && !shared.value.finished { shared.value.spent.append(consumed) }
        shared.value.held = 0
        while shared.value.groups.isEmpty && !shared.value.finished { condition.wait() }
        if !shared.value.groups.isEmpty {
            condition.broadcast()
            let group = shared.value.groups.removeFirst()
            shared.value.queuedCost -= group.cost
            shared.value.held = group.cost
            return group.items
        }
        if let failure = shared.value.failure { throw failure }
        return nil
    }

    /// Stops the producer and waits until it has finished, dropping the groups not taken.
    func close() {
        condition.lock()
        defer { condition.unlock() }
        shared.value.closed = true
        shared.value.groups.removeAll()
        condition.broadcast()
        while !shared.value.finished { condition.wait() }
    }
}

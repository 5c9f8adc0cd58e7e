/// Who holds a live ``Session``'s store, and who waits for it, in the order they came.
///
/// A load holds the store from its first answer to its commit (its staging tables and its write
/// transaction span several of the worker's jobs), and the session's other store calls take
/// their turn before or after it.
///
/// ```swift
/// if !turns.take() { await withCheckedContinuation { turns.wait($0) } }
/// defer { turns.give() }
/// ```
struct StoreTurns {
    private var taken = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Takes the store when it is free; `false` when someone holds it (then ``wait(_:)``).
    mutating func take() -> Bool {
        if taken { return false }
        taken = true
        return true
    }

    /// Queues a caller for the store, resumed holding it when its turn comes.
    mutating func wait(_ waiter: CheckedContinuation<Void, Never>) {
        waiters.append(waiter)
    }

    /// Hands the store to the next caller waiting for it, or frees it.
    mutating func give() {
        if waiters.isEmpty { taken = false } else { waiters.removeFirst().resume() }
    }
}

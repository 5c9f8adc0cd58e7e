// MARK: - The store's turns

extension Session {
    /// Waits until the store is the caller's alone: a load holds it from its first answer to its
    /// commit (its staging tables and its write transaction span several of the worker's jobs),
    /// and the session's other store calls take their turn before or after it, in the order they came.
    /// Every ``takeTurn()`` is followed by one ``giveTurn()``.
    func takeTurn() async {
        guard turnTaken else {
            turnTaken = true
            return
        }
        await withCheckedContinuation { turnWaiters.append($0) }
    }

    /// Hands the store to the next caller waiting for it, or frees it.
    func giveTurn() {
        if turnWaiters.isEmpty { turnTaken = false } else { turnWaiters.removeFirst().resume() }
    }
}

/// Runs work for each item as child tasks, at most `limit` at once: how the HTTP sources fetch
/// indexes, pages and entities concurrently.
enum BoundedTasks {
    /// Runs `work` for every item of `items`, at most `limit` at a time; the first error cancels
    /// the rest and is thrown.
    static func forEach<Item: Sendable>(
        _ items: some Sequence<Item>, limit: Int, _ work: @escaping @Sendable (Item) async throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var running = 0
            for item in items {
                if running == limit {
                    try await group.next()
                    running -= 1
                }
                group.addTask { try await work(item) }
                running += 1
            }
            try await group.waitForAll()
        }
    }
}

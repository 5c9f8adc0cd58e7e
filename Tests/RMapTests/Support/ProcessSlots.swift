import Foundation

/// How many programs the tests run at once: one more than the machine has
/// cores. A test waiting for a program holds a slot, not a thread of Swift's
/// cooperative pool, so the tests that start none run meanwhile.
actor ProcessSlots {
    /// The slots every test shares.
    static let shared = ProcessSlots(count: ProcessInfo.processInfo.activeProcessorCount + 1)

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    private init(count: Int) {
        free = count
    }

    /// The result of `body`, run while holding a slot (waiting for one first if none is free).
    nonisolated func holding<Value: Sendable>(_ body: () async throws -> Value) async throws -> Value {
        await acquire()
        do {
            let value = try await body()
            await release()
            return value
        } catch {
            await release()
            throw error
        }
    }

    private func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}

import Dispatch
import Synchronization

/// A ``StoreBackend`` that hands the writes of another one to a thread of
/// their own, so that the engine (SQLite's B-trees, PostgreSQL's COPY)
/// works on one core while ``PersistWriter`` builds the next batch on the other.
///
/// Writes (rows, bases, links, deletions) are queued in order, at most two
/// batches ahead; every other call (reads, schema, begin, commit, rollback)
/// first waits for the queue to drain, so the engine sees exactly the calls
/// it would have seen, in the same order, one thread at a time. A failed
/// write skips the writes queued after it and is thrown by the next call that
/// waits (at the latest ``commit()``), so the caller rolls back as before.
final class BackgroundBackend: StoreBackend {
    private let engine: Engine
    private let queue = DispatchQueue(label: "rmap.persist.writes")
    private let slots = DispatchSemaphore(value: 2)

    /// Wraps `backend`, which nothing else may use until the write is over.
    init(_ backend: any StoreBackend) {
        engine = Engine(backend: backend)
    }

    // MARK: - Calls that wait

    func begin() throws { try waiting { try $0.begin() } }

    func commit() throws { try waiting { try $0.commit() } }

    func rollback() {
        queue.sync {}
        engine.failure.withLock { $0 = nil }
        engine.backend.rollback()
    }

    func ensureSchema(_ layout: StoreLayout) throws { try waiting { try $0.ensureSchema(layout) } }

    func isEmpty(_ table: TableLayout) throws -> Bool { try waiting { try $0.isEmpty(table) } }

    func fetch(_ table: TableLayout, identities: [[Value]]) throws -> [IdentityKey: StoredState] {
        try waiting { try $0.fetch(table, identities: identities) }
    }

    func matchesBase(_ table: TableLayout, _ rows: [[Value?]]) throws -> [Bool] {
        try waiting { try $0.matchesBase(table, rows) }
    }

    func identities(_ table: TableLayout) throws -> [(identity: [Value], type: String?)] {
        try waiting { try $0.identities(table) }
    }

    func holdsLinks(_ join: JoinTableLayout, sources: [[Value]], links: [[[Value]]]) throws -> [Bool] {
        try waiting { try $0.holdsLinks(join, sources: sources, links: links) }
    }

    func scanRows(_ table: TableLayout) throws -> [StoredRow] { try waiting { try $0.scanRows(table) } }

    func scanBase(_ table: TableLayout) throws -> [[Value]] { try waiting { try $0.scanBase(table) } }

    // MARK: - Writes, queued

    func upsertRows(_ table: TableLayout, _ rows: [[Value]]) throws {
        try queued { try $0.upsertRows(table, rows) }
    }

    func upsertBase(_ table: TableLayout, _ rows: [[Value]]) throws {
        try queued { try $0.upsertBase(table, rows) }
    }

    func insertFresh(_ table: TableLayout, _ rows: [[Value]]) throws {
        try queued { try $0.insertFresh(table, rows) }
    }

    func delete(_ table: TableLayout, identities: [[Value]]) throws {
        try queued { try $0.delete(table, identities: identities) }
    }

    func replaceLinks(_ join: JoinTableLayout, sources: [[Value]], links: [[Value]]) throws {
        try queued { try $0.replaceLinks(join, sources: sources, links: links) }
    }

    // MARK: - Queue

    /// Runs `call` on the caller's thread once every queued write is done.
    private func waiting<T>(_ call: (any StoreBackend) throws -> T) throws -> T {
        queue.sync {}
        try throwFailure()
        return try call(engine.backend)
    }

    /// Queues `write`, waiting while two writes are already queued.
    private func queued(_ write: @escaping @Sendable (any StoreBackend) throws -> Void) throws {
        try throwFailure()
        slots.wait()
        queue.async { [engine, slots] in
            defer { slots.signal() }
            guard engine.failure.withLock({ $0 == nil }) else { return }
            do {
                try write(engine.backend)
            } catch {
                engine.failure.withLock { $0 = error }
            }
        }
    }

    private func throwFailure() throws {
        if let error = engine.failure.withLock({ $0 }) { throw error }
    }

    /// The wrapped backend, handed between the caller's thread and the queue:
    /// one of them uses it at a time (the queue runs while the caller only queues;
    /// the caller calls it only after draining the queue), and the first failed write.
    private final class Engine: @unchecked Sendable {
        let backend: any StoreBackend
        let failure = Mutex<(any Error)?>(nil)

        init(backend: any StoreBackend) {
            self.backend = backend
        }
    }
}

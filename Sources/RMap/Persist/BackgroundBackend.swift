
/// A ``StoreBackend`` that hands every call of another one to a ``SerialWorker``,
/// so that the engine (SQLite's B-trees, PostgreSQL's COPY) works on one core
/// while ``PersistWriter`` builds the next batch on the other.
///
/// Writes (rows, bases, links, deletions) are submitted without waiting, at most
/// ``SerialWorker/pending`` batches ahead; every other call (reads, schema, begin,
/// commit, rollback) runs on the worker after them and is waited for, so the engine
/// sees exactly the calls it would have seen, in the same order, one at a time.
/// A failed write skips the writes submitted after it and is thrown by the next
/// call that waits (at the latest ``commit()``), so the caller rolls back as before.
///
/// Its caller waits for the engine (``SerialWorker/sync(_:)``): in a run, the caller is a
/// phase of ``PersistWriter/beginWrite(_:request:)``, on a ``DedicatedThread``.
///
/// A written batch goes back to the caller's thread, which frees it at its next call: freeing
/// 2,048 rows (an array each, and their strings) was a tenth of the engine thread's time, on the
/// thread that bounds a large write, while the caller's waits for it half of the time.
final class BackgroundBackend: StoreBackend {
    private let worker = SerialWorker(label: "rmap.persist.engine")
    /// The wrapped backend: used only by jobs of `worker`.
    private let engine: Confined<any StoreBackend>
    private let failure = FirstFailure()
    /// Batches the engine has written, for the caller's thread to free.
    private let spent = Locked<[any Sendable]>([])

    /// Wraps `backend`, which nothing else may use until the write is over.
    init(_ backend: any StoreBackend) {
        engine = Confined(backend)
    }

    // MARK: - Calls that wait

    func begin() throws { try waiting { try $0.begin() } }

    func commit() throws { try waiting { try $0.commit() } }

    func rollback() {
        worker.sync {
            failure.reset()
            engine.value.rollback()
        }
    }

    /// Waits until every submitted write is done; throws the first that failed.
    func drain() throws { try waiting { _ in } }

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

    // MARK: - Writes, submitted

    func upsertRows(_ table: TableLayout, _ rows: [[Value]]) throws {
        try submitted(rows) { try $0.upsertRows(table, rows) }
    }

    func upsertBase(_ table: TableLayout, _ rows: [[Value]]) throws {
        try submitted(rows) { try $0.upsertBase(table, rows) }
    }

    func settleBase(_ table: TableLayout, _ rows: [[Value]]) throws {
        try submitted(rows) { try $0.settleBase(table, rows) }
    }

    func insertFresh(_ table: TableLayout, _ rows: [[Value]]) throws {
        try submitted(rows) { try $0.insertFresh(table, rows) }
    }

    func delete(_ table: TableLayout, identities: [[Value]]) throws {
        try submitted(identities) { try $0.delete(table, identities: identities) }
    }

    func replaceLinks(_ join: JoinTableLayout, sources: [[Value]], links: [[Value]]) throws {
        try submitted([sources, links]) { try $0.replaceLinks(join, sources: sources, links: links) }
    }

    // MARK: - Worker

    /// Runs `call` on the worker once every submitted write is done, and waits for it.
    private func waiting<T>(_ call: (any StoreBackend) throws -> T) throws -> T {
        defer { freeSpent() }
        return try worker.sync {
            try failure.check()
            return try call(engine.value)
        }
    }

    /// Submits `write` of `batch`, waiting while ``SerialWorker/pending`` writes are already
    /// submitted; the worker hands `batch` back (``freeSpent()``) once written.
    private func submitted(
        _ batch: some Sendable, _ write: @escaping @Sendable (any StoreBackend) throws -> Void
    ) throws {
        freeSpent()
        try failure.check()
        worker.submit { [engine, failure, spent] in
            defer { spent.withLock { $0.append(batch) } }
            guard !failure.happened else { return }
            do {
                try write(engine.value)
            } catch {
                failure.record(error)
            }
        }
    }

    /// Frees, on the caller's thread, the batches the worker has written.
    private func freeSpent() {
        _ = spent.withLock { batches in
            defer { batches = [] }
            return batches
        }
    }
}

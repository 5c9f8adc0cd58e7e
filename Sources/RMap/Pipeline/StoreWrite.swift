/// A write of one graph, in phases (``PersistWriter/beginWrite(_:request:)``):
///
/// 1. begin: the transaction is open;
/// 2. ``writeSettled()``, optional: the tables whose rows connecting leaves as they are, while
///    the pipeline connects the graph (and changes nothing else in it until this returns);
///    ``connected()`` tells it that connecting is over, so that it may write links meanwhile;
/// 3. ``finish()``: the rest, then commit (or, for a dry run, roll back).
///
/// A phase that throws has rolled the transaction back; nothing was written, and the write is over.
///
/// ```swift
/// let write = try await PersistWriter(backend: backend).beginWrite(graph, request: WriteRequest())
/// async let settled: Void = write.writeSettled()
/// _ = Connector(schema: graph.schema).connect(graph)
/// write.connected()
/// try await settled
/// let report = try await write.finish()
/// ```
public protocol StoreWrite: Sendable {
    /// Writes what connecting does not change, off the caller's thread.
    func writeSettled() async throws
    /// Says that connecting is over and the graph no longer changes: ``writeSettled()`` may
    /// write what depends on the connections too (the links, between batches of rows).
    func connected()
    /// Writes the rest (all of it when ``writeSettled()`` did not run) and commits.
    func finish() async throws -> WriteReport
}

extension StoreWrite {
    /// Nothing to tell, by default: what depends on the connections is written by ``finish()``.
    public func connected() {}
}

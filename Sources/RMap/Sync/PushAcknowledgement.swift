import Foundation

/// What a ``SyncStore`` writes when the server accepts a pushed request
/// (``SyncStore/acknowledge(_:answer:location:suffix:)``), and how a created
/// object's real identity reaches the requests still to come.
///
/// ```swift
/// let acknowledgement = PushAcknowledgement(sync: schema, transactions: transactions)
/// let moved = try acknowledgement.record(request, answer: answer, location: nil, suffix: ".json")
/// ```
struct PushAcknowledgement {
    let sync: SyncSchema
    let transactions: SyncTransactions

    /// Records that the server accepted `request`, in one transaction with its push-journal entry
    /// (what changes: ``SyncStore/acknowledge(_:answer:location:suffix:)``).
    ///
    /// - Returns: the temporary identity and the real one, when they differ.
    /// - Throws: ``SyncError`` when a created object's identity cannot be found.
    func record(_ request: PlannedRequest, answer: JSONValue?, location: String?, suffix: String) throws
        -> (from: [Value], to: [Value])?
    {
        let change = request.change
        let entity = try sync.entity(named: change.entity)
        let table = entity.table
        let journalKey = change.journalKey(table: table.name)
        if change.kind == .delete {
            try transactions.write(journal: true) {
                let engine = try transactions.engine
                try StoredTable(table: table, engine: engine).settle(identity: change.identity)
                try forgetRememberedPayloads()
                try PushJournal.delete(journalKey, on: engine)
            }
            return nil
        }
        guard let reference = change.reference else { return nil }
        var values = answer.map { sync.merging($0, into: change.values, of: entity) } ?? change.values
        if change.kind == .create,
            answer?.object == nil || IdentityKey(table.identityValues(of: values)) == IdentityKey(change.identity)
        {
            if let identity = Self.identity(fromLocation: location, suffix: suffix, table: table) {
                for (offset, column) in table.identity.enumerated() { values[column] = identity[offset] }
            } else if table.identity.contains(where: { table.columns[$0].type == .int }) {
                throw SyncError.answerWithoutIdentity(
                    change: change.label, attributes: table.identity.map { table.columns[$0].name })
            }
        }
        let old = change.identity
        let new = table.identityValues(of: values)
        try transactions.write(journal: true) {
            let engine = try transactions.engine
            let reconcile = Reconciliation(sync: sync, engine: engine)
            let merged =
                try old != new
                && reconcile.mergeIntoImported(values, reference: reference, change: change, entity: entity)
            if !merged {
                let stored = StoredTable(table: table, engine: engine)
                try stored.replace(handle: reference, with: values)
                try stored.settle(identity: old)
                try stored.settle(identity: new)
            }
            try forgetRememberedPayloads()
            try PushJournal.delete(journalKey, on: engine)
            if old != new, !IdentityKey(old).isIncomplete {
                try reconcile.moveReferences(to: entity.tableIndex, from: old, to: new)
            }
        }
        return old != new ? (old, new) : nil
    }

    /// Forgets every payload that runs remembered unchanged (``RememberedPayloads``): an
    /// acknowledged push rewrites bases from the server's answers, so a payload equal to the
    /// last one no longer means "nothing to change", and the next run maps it again.
    /// Call inside the acknowledgement's transaction; inside a batch, the first call does it for all.
    private func forgetRememberedPayloads() throws {
        let batch = transactions.batch
        if batch?.forgotPayloads == true { return }
        batch?.forgotPayloads = true
        var update = RunStateUpdate()
        update.clear(scope: RememberedPayloads.scope)
        try RunStateTable.write(update, to: transactions.engine)
    }

    /// The references of `request`'s change rewritten: each foreign key holding `from` in `table` now holds `to`.
    func rewriting(_ change: SyncChange, table destination: Int, from old: [Value], to new: [Value]) throws
        -> SyncChange
    {
        var change = change
        let table = try sync.entity(named: change.entity).tableIndex
        for group in sync.references where group.table == table && group.destination == destination {
            guard group.columns.map({ change.values[$0] }) == old else { continue }
            for (offset, column) in group.columns.enumerated() { change.values[column] = new[offset] }
        }
        return change
    }

    /// The identity in a `Location`'s last segment (its suffix cut), as the table's single identity column types it.
    private static func identity(fromLocation location: String?, suffix: String, table: TableLayout) -> [Value]? {
        guard table.identity.count == 1, let location,
            var segment = location.split(separator: "?").first?.split(separator: "/").last.map(String.init)
        else { return nil }
        if !suffix.isEmpty, segment.hasSuffix(suffix) { segment.removeLast(suffix.count) }
        let text = segment.removingPercentEncoding ?? segment
        return ValueConverter.value(from: .string(text), as: table.columns[table.identity[0]].type).map { [$0] }
    }
}

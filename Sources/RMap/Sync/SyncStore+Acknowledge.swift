import Foundation

// MARK: - Acknowledgements

extension SyncStore {
    /// Records that the server accepted `request`: the object's row and base
    /// become what was sent with the server's answer laid over it (server-side
    /// values such as `updated_at`); a created object takes the identity from
    /// the answer or, when the body is empty, from `location`'s last segment,
    /// and every foreign key and join-table link that held its temporary identity
    /// gets the real one. When the store already holds an object under the real
    /// identity (a run imported it while the `POST` was in flight), the two are
    /// one object: merged three-way (``CreatedObjectMerge``, local edits kept),
    /// stored once. A deleted object's base is dropped. The request's
    /// push-journal entry goes in the same transaction.
    ///
    /// - Returns: the temporary identity and the real one, when they differ.
    /// - Throws: ``SyncError`` when a created object's identity cannot be found.
    @discardableResult
    public func acknowledge(
        _ request: PlannedRequest, answer: JSONValue?, location: String?, suffix: String = ".json"
    ) throws -> (from: [Value], to: [Value])? {
        let change = request.change
        let entity = try sync.entity(named: change.entity)
        let table = entity.table
        let journalKey = change.journalKey(table: table.name)
        if change.kind == .delete {
            try write(journal: true) {
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
        try write(journal: true) {
            let reconcile = Reconciliation(sync: sync, engine: try engine)
            let merged = try old != new && reconcile.mergeIntoImported(values, reference: reference, change: change, entity: entity)
            if !merged {
                let stored = StoredTable(table: table, engine: try engine)
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

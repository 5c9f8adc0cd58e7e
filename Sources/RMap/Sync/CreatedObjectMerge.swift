/// One object stored twice, merged: the local row of a creation whose `POST` the server answered
/// with an identity the store already holds, because a run imported the created object while the
/// `POST` was in flight (a push killed before recording the answer, or a run during a push).
///
/// The three sides of the three-way merge (``ThreeWayMerge``, MAPPING.md §6):
/// - the common ancestor is the object as created: the values sent with the server's answer laid
///   over them (what a plain acknowledgement records);
/// - the server's side is the imported copy's base: the server's state when the run fetched it,
///   the later one;
/// - the local side is the local row: its values of the columns the `POST` carried, edits made
///   since an earlier push sent the creation included, then the local edits of the imported copy
///   (its row against its base), which win where both copies were edited.
///
/// A column changed on both sides keeps the local value, pending for the next push, unless the
/// entity's `on_conflict` is `remote`: the local edit is never dropped silently (a `fail` policy
/// cannot stop an acknowledgement, which would leave the object in the store twice).
///
/// ```swift
/// let merged = CreatedObjectMerge(policy: .fail).merge(
///     created: acknowledged, sent: change.values, carried: change.columns, imported: state)
/// // merged.row: what the store keeps; merged.base: the server's state (a PUT goes where they differ)
/// ```
struct CreatedObjectMerge {
    /// The entity's `on_conflict`.
    let policy: ConflictPolicy

    /// The merged row and base.
    ///
    /// - Parameters:
    ///   - created: the object as the acknowledgement records it (the sent values, the answer
    ///     laid over them, the server's identity).
    ///   - sent: the local row's values as the `POST` sent them.
    ///   - carried: the columns the `POST` carried.
    ///   - identity: the table's identity columns (the server's, from `created`).
    ///   - imported: what the store holds under the server's identity (a row, a base or both).
    func merge(created: [Value], sent: [Value], carried: [Int], identity: [Int], imported: StoredState) -> (
        row: [Value], base: [Value]
    ) {
        var local = created
        for column in carried where !identity.contains(column) { local[column] = sent[column] }
        let server = imported.base ?? imported.row ?? created
        var ignored: [ThreeWayMerge.Conflict] = []
        let merged = ThreeWayMerge(policy: policy == .remote ? .remote : .local)
            .merge(server.map { $0 }, into: StoredState(row: local, base: created), conflicts: &ignored)
        var row = merged.row ?? local
        if let importedRow = imported.row, let importedBase = imported.base {
            for column in importedRow.indices where importedRow[column] != importedBase[column] {
                row[column] = importedRow[column]
            }
        }
        return (row, merged.base)
    }
}

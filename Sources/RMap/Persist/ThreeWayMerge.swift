/// The per-column three-way merge of a fetched row (remote) into the stored
/// row (local) against the base (the last server state), MAPPING.md §6.
///
/// For each column the payload carried: remote equal to base keeps local (a
/// local edit stays pending); local equal to base (or to remote) takes
/// remote; otherwise both changed and the policy decides. The base becomes
/// the remote value. A row deleted locally whose remote values changed is a
/// conflict on each changed column; `remote` brings the row back.
struct ThreeWayMerge {
    /// The merged row (`nil`: stays deleted) and base, and what changed.
    struct Result {
        var row: [Value]?
        var base: [Value]
        var rowChanged: Bool
        var baseChanged: Bool
    }

    /// One column in conflict; `local` is `nil` for a row deleted locally.
    struct Conflict {
        var column: Int
        var base: Value
        var local: Value?
        var remote: Value
    }

    let policy: ConflictPolicy

    /// Merges `incoming` (nil: key not in the payload) into a stored state that has a row or a base.
    func merge(_ incoming: [Value?], into state: StoredState, conflicts: inout [Conflict]) -> Result {
        guard var base = state.base ?? state.row else {
            preconditionFailure("merge needs a stored row or base")
        }
        var row = state.row
        var result = Result(row: nil, base: [], rowChanged: false, baseChanged: state.base == nil)
        var deletedConflict = false
        for column in incoming.indices {
            guard let remote = incoming[column] else { continue }
            let previous = base[column]
            if same(remote, previous) { continue }
            base[column] = remote
            result.baseChanged = true
            guard let local = row?[column] else {
                deletedConflict = true
                if policy == .fail {
                    conflicts.append(Conflict(column: column, base: previous, local: nil, remote: remote))
                }
                continue
            }
            if same(local, previous) || same(local, remote) {
                if !same(local, remote) {
                    row?[column] = remote
                    result.rowChanged = true
                }
                continue
            }
            switch policy {
            case .fail: conflicts.append(Conflict(column: column, base: previous, local: local, remote: remote))
            case .local: break
            case .remote:
                row?[column] = remote
                result.rowChanged = true
            }
        }
        if row == nil, deletedConflict, policy == .remote {
            row = base
            result.rowChanged = true
        }
        result.row = row
        result.base = base
        return result
    }

    /// Values equal by type; decimals with the same digits skip the canonical comparison.
    @inline(__always)
    private func same(_ lhs: Value, _ rhs: Value) -> Bool {
        if case .decimal(let left) = lhs, case .decimal(let right) = rhs, left.text == right.text { return true }
        return lhs == rhs
    }
}

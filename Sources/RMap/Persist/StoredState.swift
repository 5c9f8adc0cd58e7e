/// A row's handle in its table, valid while the row exists (SQLite's `rowid`).
public typealias RowReference = Int64

/// What a store holds for one identity: the current row and the base (the last server state).
public struct StoredState: Sendable, Equatable {
    /// The current row; `nil` when it was deleted locally (or never existed).
    public var row: [Value]?
    /// The base; `nil` for rows never seen from the server.
    public var base: [Value]?

    /// Creates a state.
    public init(row: [Value]?, base: [Value]?) {
        self.row = row
        self.base = base
    }
}

/// One local change waiting to go back to the server: an object created,
/// changed or deleted since the base (the last server state).
///
/// ```swift
/// for change in try sync.changes() where change.kind == .update {
///     print(change.entity, change.identity, change.columns)
/// }
/// ```
public struct SyncChange: Sendable, Equatable {
    /// What happened to the object.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A row without a base: created locally (`POST`).
        case create
        /// A row that differs from its base in a writable column (`PUT` or `PATCH`).
        case update
        /// A base without a row: deleted locally (`DELETE`).
        case delete
    }

    /// What happened.
    public var kind: Kind
    /// The object's entity, e.g. `CRMPerson`.
    public var entity: String
    /// The row's handle; `nil` for a deletion.
    public var reference: RowReference?
    /// The row's values (the base's for a deletion), parallel to the table's columns.
    public var values: [Value]
    /// The base, for an update.
    public var base: [Value]?
    /// The columns a request carries: the changed writable ones for an update,
    /// the writable non-null ones for a creation, none for a deletion.
    public var columns: [Int]
    /// The identity columns' positions in ``values``.
    public var identityColumns: [Int]

    /// Creates a change.
    public init(
        kind: Kind, entity: String, reference: RowReference?, values: [Value], base: [Value]?, columns: [Int],
        identityColumns: [Int]
    ) {
        self.kind = kind
        self.entity = entity
        self.reference = reference
        self.values = values
        self.base = base
        self.columns = columns
        self.identityColumns = identityColumns
    }

    /// The object's identity values (null or temporary for a creation).
    public var identity: [Value] { identityColumns.map { values[$0] } }

    /// How people name the object: `CRMPerson 2`, or `CRMPerson (new)` without an identity.
    public var label: String {
        let key = IdentityKey(identity)
        return key.isIncomplete ? "\(entity) (new)" : "\(entity) \(key)"
    }
}

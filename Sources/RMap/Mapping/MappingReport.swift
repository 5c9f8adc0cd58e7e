/// What the map stage did: per-entity counts and every rejected record's errors.
///
/// ```swift
/// let counts = mapper.report.entities["CRMPerson"]
/// print(counts?.created ?? 0, "people created,", mapper.report.errors.count, "errors")
/// ```
public struct MappingReport: Sendable, Equatable {
    /// Counts by entity name (the entity each record was mapped as, nested records included).
    public var entities: [String: EntityMappingCounts]
    /// Every problem found, in the order met; a rejected record has at least one.
    public var errors: [RecordError]

    /// Creates a report.
    public init(entities: [String: EntityMappingCounts] = [:], errors: [RecordError] = []) {
        self.entities = entities
        self.errors = errors
    }
}

/// One entity's counts. Every record fetched is either created, updated or
/// rejected: `fetched == created + updated + rejected`.
public struct EntityMappingCounts: Sendable, Equatable {
    /// Records read from payloads (top-level and nested).
    public var fetched = 0
    /// Records that made a new object in the graph.
    public var created = 0
    /// Records that updated an object already in the graph (an earlier record
    /// or payload had the same identity).
    public var updated = 0
    /// Records rejected, with an error in ``MappingReport/errors`` (a nested
    /// record also counts as rejected when its parent record is).
    public var rejected = 0
    /// Keys of records (top level of each record) that map to no attribute or relationship.
    public var unmappedKeys = 0
    /// `null` items of the arrays that hold this entity's records (a payload's, a nested
    /// to-many's): skipped, as RestKit skips `NSNull` in collections. Not counted as fetched.
    public var nullItems = 0
    /// Records whose type key named no entity of the family, left out by `unknown_type: skip`
    /// (RestKit's dynamic mapping declining them). Not counted as fetched.
    public var declined = 0

    /// Creates counts.
    public init(
        fetched: Int = 0, created: Int = 0, updated: Int = 0, rejected: Int = 0, unmappedKeys: Int = 0,
        nullItems: Int = 0, declined: Int = 0
    ) {
        self.fetched = fetched
        self.created = created
        self.updated = updated
        self.rejected = rejected
        self.unmappedKeys = unmappedKeys
        self.nullItems = nullItems
        self.declined = declined
    }
}

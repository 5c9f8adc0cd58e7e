/// A record converted and checked but not yet staged: what mapping
/// holds between reading a whole record (nested records included) and
/// staging it, so that a rejected record changes nothing.
struct PendingRecord {
    let plan: EntityPlan
    /// Values by attribute position: `nil` where the record has no key (the
    /// object keeps what it has), `.null` where it said `null`.
    let values: [Value?]
    let identity: IdentityKey
    /// True when the record said its entity (its type key named it).
    var typed = false
    /// In a streamed run, the values an untyped record gives to attributes only its entity's
    /// sub-entities have (by entity index and attribute position): its object may be one, which
    /// only the store knows (``RowEntities/dropColumnsOfOtherEntities(on:)``).
    var subEntityValues: [(type: Int, attribute: Int, value: Value)] = []
    /// Where the record sits inside its top-level record (`projects.1`); `nil` at the top.
    var path: String?
    /// Nested relationships the record carries, by position in ``EntityPlan/nested``:
    /// the related records, or `nil` when the payload said `null` (clear).
    var nested: [(index: Int, records: [PendingRecord]?)] = []
}

/// The values of a payload's `fill`, or of what a nested record takes from its parent, resolved
/// per entity: attribute position and value.
final class PayloadFill {
    private let values: [String: Value]
    private var resolved: [[(position: Int, value: Value)]?]
    /// Whether the values replace those the record has (an embedded record's identity is its
    /// parent's); otherwise they fill only the keys the record lacks.
    let replaces: Bool

    init(_ values: [String: Value], typeCount: Int, replaces: Bool = false) {
        self.values = values
        resolved = Array(repeating: nil, count: typeCount)
        self.replaces = replaces
    }

    /// The fill for one entity; names the entity lacks are left out.
    func entries(for type: EntityType) -> [(position: Int, value: Value)] {
        if let entries = resolved[type.index] { return entries }
        let entries = values.compactMap { name, value in type.attributeIndex(name).map { ($0, value) } }
        resolved[type.index] = entries
        return entries
    }
}

/// Counts and errors, shared by the mapper and its converter.
final class MappingTally {
    var counts: [EntityMappingCounts]
    var touched: [Bool]
    var errors: [RecordError] = []
    /// Errors for required values lacking in records rejected for another reason, which the
    /// store confirms or withdraws (``RequiredCheck/Candidate``).
    var requiredCandidates: [RequiredCheck.Candidate] = []
    /// The entities whose records were counted since ``startPayload()``, each with its
    /// `fetched` count then: what one payload brought, found without looking at every entity.
    private(set) var countedInPayload: [(index: Int, before: Int)] = []
    private var inPayload: [Bool]

    init(typeCount: Int) {
        counts = Array(repeating: EntityMappingCounts(), count: typeCount)
        touched = Array(repeating: false, count: typeCount)
        inPayload = touched
    }

    /// Counts a record of the entity at `index` as fetched.
    func countFetched(_ index: Int) {
        if !inPayload[index] {
            inPayload[index] = true
            countedInPayload.append((index, counts[index].fetched))
        }
        counts[index].fetched += 1
        touched[index] = true
    }

    /// Starts a payload: ``countedInPayload`` is empty again.
    func startPayload() {
        for entry in countedInPayload { inPayload[entry.index] = false }
        countedInPayload.removeAll(keepingCapacity: true)
    }

    func report(_ schema: GraphSchema) -> MappingReport {
        var entities: [String: EntityMappingCounts] = [:]
        for type in schema.types where touched[type.index] { entities[type.name] = counts[type.index] }
        return MappingReport(entities: entities, errors: errors)
    }
}

/// What a run did: counts per entity, every rejected record and every dangling reference.
///
/// ``jsonDocument(status:)`` is the machine-readable report of `rmap run --json`
/// (documented in docs/cli.md).
public struct RunReport: Sendable {
    /// Counts per entity, in the model's order.
    public var entities: [EntityRunCounts]
    /// Records the map stage rejected.
    public var recordErrors: [RecordError]
    /// Objects whose to-one connection matched several objects.
    public var connectErrors: [ConnectError]
    /// References that matched nothing.
    public var dangling: [DanglingReference]
    /// Whether the run was a dry run.
    public var dryRun: Bool
    /// Whether the run was strict.
    public var strict: Bool

    /// Builds the report of the map and connect stages.
    public init(model: MappingModel, mapping: MappingReport, connect: ConnectReport, options: RunOptions) {
        recordErrors = mapping.errors
        connectErrors = connect.errors
        dangling = connect.dangling
        dryRun = options.dryRun
        strict = options.strict
        entities = model.entities.map { entity in
            var counts = EntityRunCounts(entity: entity.name)
            let mapped = mapping.entities[entity.name]
            counts.fetched = mapped?.fetched ?? 0
            counts.unmappedKeys = mapped?.unmappedKeys ?? 0
            counts.nullItems = mapped?.nullItems ?? 0
            counts.declined = mapped?.declined ?? 0
            counts.rejected = (mapped?.rejected ?? 0) + connect.errors.filter { $0.entity == entity.name }.count
            counts.dangling = connect.dangling.filter { $0.entity == entity.name }.count
            return counts
        }
    }

    /// Adds what the store wrote.
    public mutating func add(_ written: WriteReport) {
        for index in entities.indices {
            guard let counts = written.entities[entities[index].entity] else { continue }
            entities[index].inserted = counts.inserted
            entities[index].updated = counts.updated
            entities[index].unchanged = counts.unchanged
            entities[index].orphansDeleted = counts.orphansDeleted
            entities[index].deleted = counts.orphansDeleted + counts.deleted
            entities[index].stale = counts.stale
        }
    }

    /// Adds records rejected after mapping (by `exec` transformers and stages), each counted
    /// as rejected for its entity.
    public mutating func add(rejected errors: [RecordError]) {
        recordErrors += errors
        for error in errors {
            guard let index = entities.firstIndex(where: { $0.entity == error.entity }) else { continue }
            entities[index].rejected += 1
        }
    }

    /// Adds the requests sources skipped (`on_status`), by entity.
    public mutating func add(skipped: [String: Int]) {
        for index in entities.indices {
            entities[index].skipped += skipped[entities[index].entity] ?? 0
        }
    }

    /// Rejected records, from mapping and connecting.
    public var rejectedCount: Int { recordErrors.count + connectErrors.count }

    /// Dangling references.
    public var danglingCount: Int { dangling.count }

    /// True when anything was rejected or left dangling (exit status 3, or a strict failure).
    public var hasProblems: Bool { rejectedCount > 0 || danglingCount > 0 }

    /// The sums over every entity.
    public var totals: EntityRunCounts {
        entities.reduce(into: EntityRunCounts(entity: "total")) { total, counts in
            total.fetched += counts.fetched
            total.inserted += counts.inserted
            total.updated += counts.updated
            total.unchanged += counts.unchanged
            total.rejected += counts.rejected
            total.dangling += counts.dangling
            total.orphansDeleted += counts.orphansDeleted
            total.deleted += counts.deleted
            total.unmappedKeys += counts.unmappedKeys
            total.skipped += counts.skipped
            total.nullItems += counts.nullItems
            total.declined += counts.declined
            total.stale += counts.stale
        }
    }

    /// The report as one JSON document: status, flags, per-entity counts, totals, rejected records, dangling references.
    public func jsonDocument(status: String) -> JSONValue {
        .object(
            JSONObject([
                ("status", .string(status)),
                ("dry_run", .bool(dryRun)),
                ("strict", .bool(strict)),
                ("entities", .array(entities.map(\.json))),
                ("totals", totals.json),
                ("rejected", .array(recordErrors.map(Self.json) + connectErrors.map(Self.json))),
                ("dangling", .array(dangling.map(Self.json))),
            ]))
    }

    private static func json(_ error: RecordError) -> JSONValue {
        .object(
            JSONObject([
                ("entity", .string(error.entity)),
                ("identity", error.identity.map(JSONValue.string) ?? .null),
                ("attribute", error.attribute.map(JSONValue.string) ?? .null),
                ("key", error.keyPath.map(JSONValue.string) ?? .null),
                ("value", error.value.map(JSONValue.string) ?? .null),
                ("origin", .string(error.origin)),
                ("index", .number(String(error.index))),
                ("message", .string(error.description)),
            ]))
    }

    private static func json(_ error: ConnectError) -> JSONValue {
        .object(
            JSONObject([
                ("entity", .string(error.entity)),
                ("identity", .string(error.identity.description)),
                ("attribute", .null),
                ("key", .string(error.relationship)),
                ("value", .string(error.values.map(ValueText.display).joined(separator: ", "))),
                ("origin", .string(error.origin)),
                ("index", .null),
                ("message", .string(error.description)),
            ]))
    }

    private static func json(_ reference: DanglingReference) -> JSONValue {
        .object(
            JSONObject([
                ("entity", .string(reference.entity)),
                ("identity", .string(reference.identity.description)),
                ("relationship", .string(reference.relationship)),
                ("destination", .string(reference.destination)),
                ("values", .array(reference.values.map { ValueConverter.json(from: $0) })),
                ("origin", .string(reference.origin)),
                ("message", .string(reference.description)),
            ]))
    }
}

/// One entity's line of a run report.
public struct EntityRunCounts: Sendable, Equatable {
    /// The entity's name.
    public var entity: String
    /// Records fetched.
    public var fetched = 0
    /// Objects new to the store.
    public var inserted = 0
    /// Stored objects that changed.
    public var updated = 0
    /// Stored objects that were already as fetched.
    public var unchanged = 0
    /// Records rejected (map and connect errors).
    public var rejected = 0
    /// Dangling references.
    public var dangling = 0
    /// Local objects deleted as orphans.
    public var orphansDeleted = 0
    /// Stored objects deleted: orphans, tombstones and children their parent no longer lists (`delete_when`).
    public var deleted = 0
    /// Payload keys that map to no attribute or relationship (counted, not stored).
    public var unmappedKeys = 0
    /// Requests the source skipped (`on_status: {404: skip}`): they yielded no records.
    public var skipped = 0
    /// `null` items of arrays of this entity's records, skipped (not fetched, not rejected).
    public var nullItems = 0
    /// Records whose type named no entity, left out by `unknown_type: skip` (not fetched, not rejected).
    public var declined = 0
    /// Records older than the stored object by `modified_by`, skipped (not merged, not unchanged).
    public var stale = 0

    /// Creates zero counts for an entity.
    public init(entity: String) {
        self.entity = entity
    }

    var json: JSONValue {
        .object(
            JSONObject([
                ("entity", .string(entity)),
                ("fetched", .number(String(fetched))),
                ("inserted", .number(String(inserted))),
                ("updated", .number(String(updated))),
                ("unchanged", .number(String(unchanged))),
                ("rejected", .number(String(rejected))),
                ("dangling", .number(String(dangling))),
                ("orphans_deleted", .number(String(orphansDeleted))),
                ("unmapped_keys", .number(String(unmappedKeys))),
                ("deleted", .number(String(deleted))),
                ("skipped", .number(String(skipped))),
                ("null_items", .number(String(nullItems))),
                ("declined", .number(String(declined))),
                ("stale", .number(String(stale))),
            ]))
    }
}

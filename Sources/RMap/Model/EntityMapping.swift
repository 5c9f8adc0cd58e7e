/// One entity of the model with every name resolved: what wraps its records,
/// where they are fetched, which table stores them, and its attributes and
/// relationships (inherited ones included, for sub-entities).
public struct EntityMapping: Sendable, Hashable {
    /// The entity's name, e.g. `CRMPerson`.
    public var name: String
    /// The element name that wraps one record, e.g. `person`.
    public var element: String
    /// The collection name, e.g. `people`: the wrapper of many records and the table name.
    public var collection: String
    /// The URL path under the site, e.g. `people`.
    public var path: String
    /// The key path to the record array in a payload, when set.
    public var records: [String]?
    /// Where this entity's payloads come from; `nil` when it only arrives nested.
    public var source: PluginConfig?
    /// True when the mapping says `source: false`: the entity's objects exist only nested in
    /// other objects, so a parent's payload that replaces one deletes it
    /// (docs/mapping.md, "Objects that only exist nested").
    public var nestedOnly = false
    /// The identification attributes' names.
    public var identity: [String]
    /// True when the mapping declares no `identity:` and it was inferred from the attribute
    /// names (`id`, `personID`, `person_id`, `identifier`, `ID`).
    public var identityInferred = false
    /// The parent entity, for a sub-entity.
    public var parent: String?
    /// For polymorphic payloads: the key whose value picks the entity.
    public var typeKey: String?
    /// Type-key values mapped to entity names.
    public var types: [String: String] = [:]
    /// An HTTP path fetched once per parent, e.g. `people/{personId}/projects`.
    public var nestedPath: String?
    /// The `order` of HTTP index requests.
    public var sort: [SortKey] = []
    /// How changes are sent back.
    public var pushMethod: PushMethod = .put
    /// The header that carries a `POST`'s idempotency key, the same on every
    /// attempt (`push: {idempotency_header: ...}`, default `Idempotency-Key`).
    public var idempotencyHeader = "Idempotency-Key"
    /// What a re-fetch does when it meets a local edit.
    public var onConflict: ConflictPolicy = .fail
    /// What happens to local objects a complete fetch no longer has.
    public var orphans: OrphanPolicy = .keep
    /// `modified_by`: the attribute that tells an object's last change (`updatedAt`); a record
    /// whose value is older than the stored object's is skipped as stale, an equal one as
    /// unchanged (RestKit's `modificationAttribute`). `nil`: every record is merged.
    public var modifiedBy: String?
    /// The incremental fetch (`incremental:`), or `nil` to fetch everything every run.
    public var incremental: IncrementalSync?
    /// How records are wrapped in payloads and request bodies.
    public var root: RootStyle = .auto
    /// `records: { key_as: login }`: the records are an object's members, each member's key
    /// going into this attribute (`{"alice": {...}, "bob": {...}}`).
    public var recordsKeyAs: String?
    /// `delete_when`: which records are tombstones and which nested children a parent's list drops.
    public var deletion = Deletion()
    /// The attributes, inherited ones first.
    public var attributes: [AttributeMapping] = []
    /// The relationships, inherited ones first.
    public var relationships: [RelationshipMapping] = []
    /// The Singer stream whose records this entity takes (`stream:`); `nil`: the stream
    /// named like the entity's collection or element.
    public var stream: String?
    /// What a record of a type the entity does not know does (`unknown_type:`): one whose type
    /// key names no entity of the family, or a JSON:API resource of a type the entity does not map.
    public var unknownType: UnknownTypePolicy = .reject
    /// The entity's JSON:API resource, when its source has `format: jsonapi`.
    public var jsonAPI: JSONAPIResource?
    /// The GraphQL query that fetches the entity's records (`query:`, for a `graphql` source).
    public var query: String?
    /// The mapping file that declares the entity.
    public var file: String
    /// Where the entity is declared.
    public var mark: Mark

    /// Creates an entity mapping.
    public init(
        name: String, element: String, collection: String, path: String, identity: [String], file: String,
        mark: Mark
    ) {
        self.name = name
        self.element = element
        self.collection = collection
        self.path = path
        self.identity = identity
        self.file = file
        self.mark = mark
    }

    /// The attribute with this property name.
    public func attribute(named name: String) -> AttributeMapping? {
        attributes.first { $0.name == name }
    }

    /// The relationship with this name.
    public func relationship(named name: String) -> RelationshipMapping? {
        relationships.first { $0.name == name }
    }
}

/// One key of an entity's `sort:`.
public struct SortKey: Sendable, Hashable {
    /// The attribute name.
    public var attribute: String
    /// Ascending or descending.
    public var descending: Bool

    /// Creates a sort key.
    public init(attribute: String, descending: Bool) {
        self.attribute = attribute
        self.descending = descending
    }
}

/// The HTTP method for changed objects.
public enum PushMethod: String, Sendable, Hashable, CaseIterable {
    case put, patch
}

/// What a re-fetch does when both the server and the local store changed an attribute.
public enum ConflictPolicy: String, Sendable, Hashable, CaseIterable {
    /// Report the conflict and write nothing.
    case fail
    /// Keep the local value (it stays pending).
    case local
    /// Take the server's value.
    case remote
}

/// What happens to local objects that a complete fetch no longer has.
public enum OrphanPolicy: String, Sendable, Hashable, CaseIterable {
    case keep, delete
}

/// What a record whose type key names no entity of the family does (`unknown_type:`).
public enum UnknownTypePolicy: String, Sendable, Hashable, CaseIterable {
    /// A record error.
    case reject
    /// Left out and counted (``EntityMappingCounts/declined``), as RestKit's dynamic mapping declines it.
    case skip
}

/// How a record is wrapped (Rails' `include_root_in_json`).
public enum RootStyle: String, Sendable, Hashable, CaseIterable {
    /// `{"person": {...}}`.
    case wrapped
    /// `{...}`.
    case bare
    /// Accept both when reading; send wrapped.
    case auto
}

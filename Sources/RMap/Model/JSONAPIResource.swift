/// What the model knows of an entity whose source speaks JSON:API (`source: {plugin: http,
/// format: jsonapi}`, MAPPING.md §9): the resource type of its objects, the source its
/// resources are fetched from and pushed to, and where each relationship's linkage is kept.
///
/// The loader adds, for each relationship without `connect:` or `nested:` that is not the
/// inverse of a connected one, hidden attributes that hold the linkage
/// (`relationships.<name>.data`) and a foreign-key connection on them, so that linkage
/// connects like any foreign key:
///
/// ```yaml
/// CRMProject:
///   relationships:
///     owner: { to_one: CRMPerson }     # hidden: ownerId (column owner_id), connect {ownerId: id}
///     tags: { to_many: CRMTag }        # hidden: tagIds [..] (column tag_ids), connect {tagIds: id}
/// ```
///
/// The http source writes each resource's linkage into those attributes
/// (``JSONAPIRecord``), and a push sends them back as linkage.
public struct JSONAPIResource: Sendable, Hashable {
    /// The resource type requests carry: the collection inflected as the file's attribute keys
    /// (`people`; `project-tasks` with `naming: {attributes: kebab_case}`).
    public var type: String
    /// The source the entity's resources come from and go back to: its own, else its file's.
    public var source: PluginConfig
    /// The relationships that linkage connects, in declaration order.
    public var linkages: [JSONAPILinkage]

    /// Creates the description.
    public init(type: String, source: PluginConfig, linkages: [JSONAPILinkage] = []) {
        self.type = type
        self.source = source
        self.linkages = linkages
    }

    /// The linkage of the relationship named `name`, when linkage connects it.
    public func linkage(of name: String) -> JSONAPILinkage? {
        linkages.first { $0.relationship == name }
    }
}

/// One relationship connected by JSON:API linkage, and the hidden attributes that hold it.
public struct JSONAPILinkage: Sendable, Hashable {
    /// The relationship's name, e.g. `owner`.
    public var relationship: String
    /// The member of `relationships` in a resource, e.g. `owner` or `team-members`.
    public var member: String
    /// A single resource identifier (to-one) or a list of them (to-many).
    public var kind: RelationshipMapping.Kind
    /// The destination entity.
    public var destination: String
    /// The hidden attribute holding the destination ids: a scalar for a to-one, an array for a to-many.
    public var ids: String
    /// The hidden attribute holding the destination types, for a destination with sub-entities
    /// (a polymorphic relationship); `nil` otherwise.
    public var types: String?

    /// Creates a linkage.
    public init(
        relationship: String, member: String, kind: RelationshipMapping.Kind, destination: String, ids: String,
        types: String? = nil
    ) {
        self.relationship = relationship
        self.member = member
        self.kind = kind
        self.destination = destination
        self.ids = ids
        self.types = types
    }

    /// The record key under `member` that holds the ids: `id` for a to-one, `ids` for a to-many.
    public var idsKey: String { kind == .toOne ? "id" : "ids" }
    /// The record key under `member` that holds the types: `type` for a to-one, `types` for a to-many.
    public var typesKey: String { kind == .toOne ? "type" : "types" }
}

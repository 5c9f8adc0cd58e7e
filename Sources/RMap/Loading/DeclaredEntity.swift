/// An entity as one file declares it, before inheritance and names are resolved.
struct DeclaredEntity {
    var name: String
    var mark: Mark
    var settings: FileSettings
    var element: String?
    var collection: String?
    var path: String?
    var records: [String]?
    /// `records: { key_as: ... }`: the attribute that receives each record's key.
    var recordsKeyAs: (name: String, mark: Mark)?
    /// `nil`: the file's source; `.some(nil)`: `source: false`.
    var source: PluginConfig??
    var identity: (names: [String], mark: Mark)?
    /// The identity inferred from the attribute names when none is declared (``IdentityInference``).
    var inferredIdentity: String?
    var extends: (name: String, mark: Mark)?
    var typeKey: String?
    var types: [(value: String, entity: String, mark: Mark)] = []
    var nestedPath: (path: String, mark: Mark)?
    var sort: [(key: SortKey, mark: Mark)] = []
    var pushMethod: PushMethod?
    var idempotencyHeader: String?
    var onConflict: ConflictPolicy?
    var orphans: OrphanPolicy?
    /// `modified_by:`, and where it is written.
    var modifiedBy: (name: String, mark: Mark)?
    var incremental: (sync: IncrementalSync, mark: Mark)?
    /// `delete_when`, decoded once the attributes it names are known.
    var deleteWhen: YAMLNode?
    /// `stream:`: the Singer stream whose records this entity takes.
    var stream: String?
    /// `unknown_type:`: what a record of a type the entity does not know does.
    var unknownType: (policy: UnknownTypePolicy, mark: Mark)?
    /// `query:`: the GraphQL query of a `graphql` source.
    var query: String?
    var attributes: [AttributeMapping] = []
    var relationships: [(name: String, node: YAMLNode, mark: Mark)] = []
    /// Part of the declaration could not be read (its `attributes:` block, the entity it extends):
    /// the checks of the whole model skip what would only repeat that error (no identity).
    var incomplete = false

    static let keys = [
        "element", "collection", "path", "records", "source", "identity", "extends", "type_key", "types",
        "nested_path", "sort", "push", "on_conflict", "orphans", "attributes", "relationships",
        "incremental",
        "delete_when",
        "stream",
        "query",
        "unknown_type",
        "modified_by",
    ]
    static let attributeKeys = [
        "type", "key", "required", "default", "default_on_missing", "format", "map", "readonly", "transform",
        "empty_as_null", "true_values", "false_values", "wrap_single",
    ]
}

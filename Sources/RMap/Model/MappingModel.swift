import Foundation

/// The merged, validated model of every mapping file given: the input of every
/// pipeline stage.
///
/// ```swift
/// let model = try MappingLoader().load(["mappings/crm.yml"])
/// let person = model.entity(named: "CRMPerson")
/// ```
public struct MappingModel: Sendable {
    /// The entities, in the order their files and declarations were given.
    public private(set) var entities: [EntityMapping] {
        didSet { loadedFrom = nil }
    }
    /// The store the files name, when any.
    public var store: PluginConfig?
    /// The `stages:` items of every file, in the order given: they run after connect.
    public var stages: [PluginConfig] = [] {
        didSet { loadedFrom = nil }
    }
    /// The inflector with every file's `inflections:` added.
    public var inflector: Inflector
    /// The mapping files, as given.
    public var files: [String]
    /// The secret values read from the environment (a variable named like `*TOKEN*`,
    /// `*SECRET*`, `*PASSWORD*`, `*KEY*`, or used under `auth`, `headers`, a password);
    /// ``redact(_:)`` hides them.
    public var secrets: Set<String> {
        didSet { redactor = Self.redactor(of: secrets) }
    }
    /// What hides ``secrets`` (and any URL's password) in text: ``redact(_:)``.
    public private(set) var redactor: Redactor
    private var index: [String: Int]
    /// The fingerprint of the files' text and the variables they read, set by ``MappingLoader``
    /// (``MappingFingerprint/of(documents:variables:)``); any change to the entities or stages
    /// drops it.
    var loadedFrom: String?

    /// Creates a model.
    public init(
        entities: [EntityMapping], store: PluginConfig? = nil, inflector: Inflector = Inflector(),
        files: [String] = [], secrets: Set<String> = []
    ) {
        self.entities = entities
        self.store = store
        self.inflector = inflector
        self.files = files
        self.secrets = secrets
        redactor = Self.redactor(of: secrets)
        index = Dictionary(entities.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The entity with this name.
    public func entity(named name: String) -> EntityMapping? {
        index[name].map { entities[$0] }
    }

    /// The root of an entity's `extends` chain (the entity itself when it extends nothing).
    public func root(of entity: EntityMapping) -> EntityMapping {
        var current = entity
        while let parent = current.parent, let next = self.entity(named: parent) { current = next }
        return current
    }

    /// True when `entity` is `ancestor` or extends it, directly or not.
    public func entity(_ entity: EntityMapping, isKindOf ancestor: String) -> Bool {
        var current: EntityMapping? = entity
        while let candidate = current {
            if candidate.name == ancestor { return true }
            current = candidate.parent.flatMap { self.entity(named: $0) }
        }
        return false
    }

    /// The entity and every entity that extends it, directly or not.
    public func family(of name: String) -> [EntityMapping] {
        entities.filter { entity in self.entity(entity, isKindOf: name) }
    }

    /// `text` with every secret value read from the environment (``secrets``), and any URL's
    /// password, replaced by `***` (``Redactor``).
    public func redact(_ text: String) -> String {
        redactor.redact(text)
    }

    /// The redactor of `secrets`: `Authorization` fields keep their scheme (`Bearer ***`), the
    /// files name what they send.
    private static func redactor(of secrets: Set<String>) -> Redactor {
        Redactor(secrets: secrets, hidingAuthorizationFields: false)
    }
}

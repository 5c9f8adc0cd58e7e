/// An entity of the model as the runtime uses it: the mapping plus indexes
/// (attribute and relationship positions, the root, the identity's positions).
/// The positions are the staging tables' and the store layout's (`package`); the public API is by name.
///
/// Instances are immutable and shared by every stage of a run.
public final class EntityType: Sendable {
    /// The resolved mapping.
    public let mapping: EntityMapping
    /// This entity's position in ``GraphSchema/types``.
    package let index: Int
    /// The position of the root of its `extends` chain (itself for a root).
    package let rootIndex: Int
    /// The positions of the identity attributes in ``EntityMapping/attributes``.
    package let identityIndices: [Int]
    private let attributePositions: [String: Int]
    private let relationshipPositions: [String: Int]

    init(mapping: EntityMapping, index: Int, rootIndex: Int) {
        self.mapping = mapping
        self.index = index
        self.rootIndex = rootIndex
        let attributePositions = Dictionary(
            mapping.attributes.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { _, last in last })
        self.attributePositions = attributePositions
        relationshipPositions = Dictionary(
            mapping.relationships.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { _, last in last })
        identityIndices = mapping.identity.compactMap { attributePositions[$0] }
    }

    /// The entity's name.
    public var name: String { mapping.name }

    /// The position of the attribute named `name`.
    package func attributeIndex(_ name: String) -> Int? { attributePositions[name] }

    /// The position of the relationship named `name`.
    package func relationshipIndex(_ name: String) -> Int? { relationshipPositions[name] }
}

/// Every entity of a model as ``EntityType``s, with family lookups: what the
/// map, connect, store and diff stages share.
public final class GraphSchema: Sendable {
    /// The model.
    public let model: MappingModel
    /// The entities, in the model's order.
    public let types: [EntityType]
    private let positions: [String: Int]
    /// For each entity, the positions of itself and every entity that extends it.
    private let families: [[Int]]

    /// Builds the schema of a model.
    public init(model: MappingModel) {
        self.model = model
        let positions = Dictionary(
            model.entities.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.positions = positions
        types = model.entities.enumerated().map { index, entity in
            EntityType(mapping: entity, index: index, rootIndex: positions[model.root(of: entity).name] ?? index)
        }
        // Each entity joins the family of itself and of every ancestor: linear in entities times depth.
        var families = Array(repeating: [Int](), count: model.entities.count)
        for (index, entity) in model.entities.enumerated() {
            var member: EntityMapping? = entity
            while let current = member, let position = positions[current.name] {
                families[position].append(index)
                member = current.parent.flatMap { model.entity(named: $0) }
            }
        }
        self.families = families
    }

    /// The entity named `name`, or `nil` when the model has none: a question about the schema.
    /// The entry points by name (``StagedObjects/update(_:_:)``) throw ``GraphError/unknownEntity(_:)`` instead.
    public func type(named name: String) -> EntityType? {
        positions[name].map { types[$0] }
    }

    /// The root of an entity's `extends` chain.
    public func root(of type: EntityType) -> EntityType { types[type.rootIndex] }

    /// The entity and every entity that extends it.
    public func family(of type: EntityType) -> [EntityType] { families[type.index].map { types[$0] } }

    /// The root entities (those that extend nothing), each one table.
    public var roots: [EntityType] { types.filter { $0.rootIndex == $0.index } }
}

/// The JSON:API resource types of a model's entities: which entity a resource of a given
/// `type` belongs to (MAPPING.md §9).
///
/// A type names the entity whose collection it is, inflected as the rest of rmap: `people`,
/// `project-tasks` and `projectTasks` all name the collection `project_tasks`; a singular type
/// (`person`) names the entity whose element it is. Only the entities of JSON:API sources count.
///
/// ```swift
/// let types = JSONAPITypes(model: model)
/// types.entity(for: "people")   // CRMPerson
/// ```
public struct JSONAPITypes: Sendable {
    private let exact: [String: String]
    private let inflected: [String: String]
    private let inflector: Inflector

    /// Indexes the JSON:API entities of `model`; of two entities that name one type, the first wins.
    public init(model: MappingModel) {
        var exact: [String: String] = [:]
        var inflected: [String: String] = [:]
        for entity in model.entities {
            guard let resource = entity.jsonAPI else { continue }
            if exact[resource.type] == nil { exact[resource.type] = entity.name }
            for name in [entity.collection, entity.element] where inflected[name] == nil {
                inflected[name] = entity.name
            }
        }
        self.exact = exact
        self.inflected = inflected
        inflector = model.inflector
    }

    /// The entity whose resources have `type`, or `nil` when no entity has it.
    public func entity(for type: String) -> String? {
        exact[type] ?? inflected[type] ?? inflected[inflector.underscore(type)]
    }

    /// The types known, for messages.
    public var names: [String] { exact.keys.sorted() }
}

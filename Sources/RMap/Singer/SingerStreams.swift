/// Which entity takes the records of each Singer stream.
///
/// An entity's `stream:` names its stream exactly. Otherwise a stream goes to the
/// entity whose element is the stream's name underscored and singularised: with the
/// entity prefix `CRM`, the streams `people`, `person` and `People` all go to
/// `CRMPerson` (element `person`, collection `people`). Sub-entities take no stream
/// of their own unless they name one: their records arrive in the parent's, by `type_key`.
struct SingerStreams {
    private let explicit: [String: EntityMapping]
    private let byElement: [String: EntityMapping]
    private let inflector: Inflector
    private let names: [String]

    /// The streams of `entities`, the entities a Singer source or stdin feeds.
    init(entities: [EntityMapping], inflector: Inflector) {
        self.inflector = inflector
        var explicit: [String: EntityMapping] = [:]
        var byElement: [String: EntityMapping] = [:]
        for entity in entities {
            if let stream = entity.stream {
                explicit[stream] = explicit[stream] ?? entity
            } else if entity.parent == nil {
                for name in [entity.element, inflector.singularize(entity.collection)] {
                    byElement[name] = byElement[name] ?? entity
                }
            }
        }
        self.explicit = explicit
        self.byElement = byElement
        names = entities.map(\.name)
    }

    /// The entity for `stream`, or `nil` when none takes it.
    func entity(for stream: String) -> EntityMapping? {
        explicit[stream] ?? byElement[inflector.singularize(inflector.underscore(stream))]
    }

    /// A sentence for an unknown stream: what the feed's entities are and how to name a stream.
    func unknown(_ stream: String) -> String {
        "stream '\(stream)' maps to no entity (entities fed: \(names.joined(separator: ", ")));"
            + " name it with 'stream: \(stream)' on an entity, or leave it out of the tap's catalog"
    }
}

public import RMap

/// Infers a mapping from sample payloads: the engine of `rmap init`.
///
/// Entities are named from root keys, file names or URL paths (singular,
/// camelized, prefixed); attributes are typed by the converter a run uses;
/// nested objects with `id` become nested relationships to entities of their
/// own; `*_id` and `*_ids` keys are connected by `foreign_key` to the entity
/// they name when their values are found among its identities (or, when the
/// name says nothing, to the one entity holding them all, noted as unsure).
///
/// ```swift
/// let mapping = MappingInference(prefix: "CRM").infer([
///     PayloadSample(origin: .file("samples/people.json"), document: people),
/// ])
/// print(MappingWriter(folder: "/work/crm", currentDirectory: "/work/crm").text(mapping))
/// for note in mapping.notes { print(note) }
/// ```
public struct MappingInference: Sendable {
    /// The names the mapping will use.
    let naming: InferenceNaming

    /// Creates an inference.
    ///
    /// - Parameters:
    ///   - prefix: the entity prefix (`CRM` makes `CRMPerson`), written as `naming.entity_prefix`.
    ///   - inflector: the inflector the mapping will be loaded with.
    public init(prefix: String = "", inflector: Inflector = Inflector()) {
        naming = InferenceNaming(prefix: prefix, inflector: inflector)
    }

    /// The mapping that reads `samples`, with notes on what was inferred and what was not sure.
    ///
    /// - Complexity: O(size of the samples).
    public func infer(_ samples: [PayloadSample]) -> InferredMapping {
        var collector = DraftCollector(naming: naming)
        for sample in samples { collector.add(sample) }
        var notes = collector.notes
        var entities = collector.drafts.map { draft in
            let attributes = AttributeInference(naming: naming, draft: draft)
            notes += attributes.notes
            return InferredEntity(
                name: draft.name, source: draft.source, records: draft.records, recordCount: draft.objects.count,
                identity: attributes.identity, compositeIdentity: attributes.compositeIdentity,
                typeKey: attributes.typeKey, attributes: attributes.attributes, relationships: [])
        }
        for entity in entities {
            notes.append(Self.identityNote(entity))
            if let typeKey = entity.typeKey {
                notes.append(
                    .unsure(
                        "\(entity.name): '\(typeKey.key)' may pick sub-entities (\(typeKey.values.joined(separator: ", "))); see the comment"
                    ))
            }
        }
        var connections = ConnectionInference(naming: naming, drafts: collector.drafts, entities: entities)
        connections.run()
        entities = connections.entities
        return InferredMapping(prefix: naming.prefix, entities: entities, notes: notes + connections.notes)
    }

    /// `inferred: CRMPerson: identity id`, or what stands in for it.
    private static func identityNote(_ entity: InferredEntity) -> InferenceNote {
        if let identity = entity.identity { return .inferred("\(entity.name): identity \(identity)") }
        guard !entity.compositeIdentity.isEmpty else {
            return .unsure(
                "\(entity.name): no identity (no key holds a value in every record); declare 'identity:' before a run")
        }
        let names = entity.compositeIdentity.joined(separator: ", ")
        return .unsure("\(entity.name): no one key tells the records apart; identity [\(names)] together")
    }
}

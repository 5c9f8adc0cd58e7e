public import RMap

/// `rmap init --format jsonapi`: a mapping inferred from JSON:API compound documents
/// (MAPPING.md §9).
///
/// Each resource type becomes an entity (`people` -> `CRMPerson`); the types of primary data
/// (`data`) get the http source with `format: jsonapi`, those seen only in `included` arrive
/// included (`source: false`). A type's attributes are inferred from its resources'
/// `attributes` as from plain records (members dasherized, camelCased or underscored read the
/// same, so the default naming finds them), `id` is the identity (an integer when every id is
/// digits); each member of `relationships` with linkage becomes a relationship to the type its
/// identifiers name (to-one for an identifier or `null`, to-many for a list), connected by
/// linkage without `connect:`. A to-many whose destination links back with a to-one is
/// declared its inverse.
///
/// ```swift
/// let mapping = JSONAPIInference(prefix: "Blog").infer([
///     PayloadSample(origin: .url("https://example.com/articles?include=author"), document: document)
/// ])
/// ```
public struct JSONAPIInference: Sendable {
    /// The names the mapping will use.
    let naming: InferenceNaming

    /// One type's resources and what their relationships link to.
    private struct TypeDraft {
        var draft: EntityDraft
        /// Relationship member -> (to-many, destination types seen), in the order first seen.
        var links: [(member: String, toMany: Bool, types: [String])] = []
    }

    /// Creates an inference.
    ///
    /// - Parameters:
    ///   - prefix: the entity prefix, written as `naming.entity_prefix`.
    ///   - inflector: the inflector the mapping will be loaded with.
    public init(prefix: String = "", inflector: Inflector = Inflector()) {
        naming = InferenceNaming(prefix: prefix, inflector: inflector)
    }

    /// The mapping that reads `samples` (JSON:API documents), with notes.
    ///
    /// - Complexity: O(size of the samples).
    public func infer(_ samples: [PayloadSample]) -> InferredMapping {
        var types: [String: TypeDraft] = [:]
        var order: [String] = []
        var notes: [InferenceNote] = []
        for sample in samples {
            guard let document = sample.document.object, let data = document["data"] else {
                notes.append(
                    .unsure("\(DraftCollector.describe(sample.origin)): not a JSON:API document (no 'data'); left out"))
                continue
            }
            let primary = data.array ?? (data == .null ? [] : [data])
            for (part, resources) in [("data", primary), ("included", document["included"]?.array ?? [])] {
                for resource in resources.compactMap(\.object) {
                    guard let type = resource["type"]?.string else { continue }
                    if types[type] == nil {
                        order.append(type)
                        types[type] = TypeDraft(draft: EntityDraft(name: naming.entity(from: type)))
                    }
                    if part == "data", types[type]?.draft.source == nil {
                        types[type]?.draft.source = Self.source(sample.origin, type: type)
                        notes.append(
                            .inferred(
                                "\(naming.entity(from: type)): '\(type)' resources from \(DraftCollector.describe(sample.origin))"
                            ))
                    }
                    absorb(resource, into: &types[type, default: TypeDraft(draft: EntityDraft(name: type))])
                }
            }
        }
        var entities = order.compactMap { types[$0] }.map { type in
            let attributes = AttributeInference(naming: naming, draft: type.draft)
            notes += attributes.notes
            return InferredEntity(
                name: type.draft.name, source: type.draft.source, records: nil, recordCount: type.draft.objects.count,
                identity: attributes.identity, attributes: attributes.attributes, relationships: [])
        }
        for (index, type) in order.enumerated() {
            entities[index].relationships = relationships(of: types[type]?.links ?? [], types: types, notes: &notes)
        }
        return InferredMapping(prefix: naming.prefix, entities: Self.withInverses(entities), notes: notes)
    }

    /// Files a resource's record (`id`, attributes by their underscored names) and its linkage.
    private func absorb(_ resource: JSONObject, into type: inout TypeDraft) {
        var record = JSONObject()
        if let id = resource["id"] {
            let digits = id.string.map { !$0.isEmpty && $0.allSatisfy(\.isNumber) } ?? false
            record.members.append(("id", digits ? .number(id.string ?? "") : id))
        }
        for member in resource["attributes"]?.object?.members ?? [] {
            record.members.append((naming.inflector.underscore(member.key), member.value))
        }
        type.draft.objects.append(record)
        type.draft.keys.formUnion(record.keys)
        for member in resource["relationships"]?.object?.members ?? [] {
            guard let data = member.value.object?["data"] else { continue }
            let identifiers = data.array ?? [data]
            let seen = identifiers.compactMap { $0.object?["type"]?.string }
            if let position = type.links.firstIndex(where: { $0.member == member.key }) {
                type.links[position].types += seen.filter { !type.links[position].types.contains($0) }
            } else {
                type.links.append((member.key, data.array != nil, Array(Set(seen)).sorted()))
            }
        }
    }

    /// The relationships of one type's links, each to the entity of the first type its linkage named.
    private func relationships(
        of links: [(member: String, toMany: Bool, types: [String])], types: [String: TypeDraft],
        notes: inout [InferenceNote]
    ) -> [InferredRelationship] {
        links.compactMap { link in
            guard let type = link.types.first, let destination = types[type]?.draft.name else {
                notes.append(
                    .unsure("relationship '\(link.member)': its linkage never named an included type; left out"))
                return nil
            }
            let comment = link.types.count > 1 ? "check: linkage names \(link.types.joined(separator: ", "))" : nil
            return InferredRelationship(
                name: naming.property(link.member), destination: destination, toMany: link.toMany, nested: false,
                comment: comment)
        }
    }

    /// Each to-many declared the inverse of its destination's one to-one back, when there is one.
    private static func withInverses(_ entities: [InferredEntity]) -> [InferredEntity] {
        var entities = entities
        for index in entities.indices {
            for position in entities[index].relationships.indices where entities[index].relationships[position].toMany {
                let relationship = entities[index].relationships[position]
                guard let other = entities.firstIndex(where: { $0.name == relationship.destination }) else { continue }
                let back = entities[other].relationships.filter { !$0.toMany && $0.destination == entities[index].name }
                if back.count == 1 { entities[index].relationships[position].inverse = back[0].name }
            }
        }
        return entities
    }

    /// The http source of the primary type `type`: the URL's site and path, or `${API_URL}` for a file.
    private static func source(_ origin: PayloadSample.Origin, type: String) -> InferredEntity.Source {
        guard case .url(let text) = origin else { return .jsonAPI(site: "${API_URL}", path: type, suffix: "") }
        let parts = URLParts(text)
        let slash = parts.path.hasSuffix("/")
        return .jsonAPI(
            site: parts.site, path: String(parts.path.dropFirst().dropLast(slash ? 1 : 0)), suffix: slash ? "/" : "")
    }
}

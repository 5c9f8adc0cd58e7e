import Foundation
import RMap

/// One index request of a live query: the entity and `http` source options
/// that make ``HTTPSource`` send exactly it, and the conditions left for the
/// session to apply to the answer.
///
/// Conditions become query parameters named as the server names the
/// attribute (its payload key, as `sort:` is inflected: `lastName` ->
/// `last_name`); a list is sent as `name[]`. A `nested_path` placeholder is
/// filled from the condition on it (`people/{personId}/projects` with
/// `personId: 1` -> `people/1/projects`). `limit`/`offset` are sent as such
/// (ActiveResource) instead of the entity's paging; without them every page
/// is walked as the source's `paginate:` says. Conditions on attributes the
/// session marks local-only, or whose payload key is a nested path, are not
/// sent: ``matches(_:)`` applies them to the answer.
struct LiveQuery {
    /// The entity as the source sees it: sort and path of this request.
    var entity: EntityMapping
    /// The source options of this request.
    var config: PluginConfig
    /// Conditions applied to the answer, by attribute name.
    var local: [(attribute: String, value: QueryValue)]

    /// The options a live request replaces in the entity's `source:` block.
    private static let replaced: Set<String> = ["params", "page_size", "paginate"]

    init(
        _ entity: EntityMapping, conditions: [String: QueryValue], sort: [SortKey]?, limit: Int?, offset: Int?,
        localOnly: Set<String>, model: MappingModel, paged: Bool = true
    ) throws {
        guard let config = entity.source, config.plugin == "http" else {
            throw LiveError(
                "\(entity.name) has no http source to fetch from (give it 'source: {plugin: http, site: ...}')")
        }
        let settings = try HTTPSourceSettings(config)
        var derived = entity
        derived.sort =
            try sort.map { keys in
                for key in keys where entity.attribute(named: key.attribute) == nil {
                    throw LiveError.unknownAttribute(key.attribute, of: entity)
                }
                return keys
            } ?? entity.sort
        var remaining = conditions
        if let nested = entity.nestedPath {
            var values: [String: String] = [:]
            for name in Template.placeholders(in: nested) {
                guard case .equals(let value)? = remaining.removeValue(forKey: name), !value.isNull else {
                    throw LiveError(
                        "\(entity.name) is fetched through '\(nested)': give where: [\"\(name)\": ...] to name its parent"
                    )
                }
                values[name] = Self.text(value)
            }
            derived.path = Template.fill(nested, with: values, transform: Template.segment)
            derived.nestedPath = nil
        }
        var items: [(name: String, values: [String], isList: Bool)] = settings.params.filter { param in
            !param.values.contains { !Template.placeholders(in: $0).isEmpty }
        }.map { ($0.name, $0.values, $0.isList) }
        var local: [(String, QueryValue)] = []
        for (name, value) in remaining.sorted(by: { $0.key < $1.key }) {
            guard let attribute = entity.attribute(named: name) else {
                throw LiveError.unknownAttribute(name, of: entity)
            }
            if localOnly.contains(name) || attribute.keyPath.count > 1 {
                local.append((name, value))
                continue
            }
            let key = HTTPSource.queryKey(name, of: entity, model: model)
            switch value {
            case .equals(let single): items.append((key, [Self.text(single)], false))
            case .anyOf(let values): items.append((key, values.map(Self.text), true))
            }
        }
        if limit != nil || offset != nil {
            if let limit { items.append(("limit", [String(limit)], false)) }
            if let offset { items.append(("offset", [String(offset)], false)) }
        }
        let paged = paged && limit == nil && offset == nil
        var pairs =
            config.options.mapping?.filter { pair in
                let key = pair.key.scalar?.text ?? ""
                return !Self.replaced.contains(key) || (paged && key != "params")
            } ?? []
        if !items.isEmpty {
            pairs.append(
                YAMLPair(key: Self.scalar("params", config.mark), value: Self.params(items, mark: config.mark)))
        }
        var options = config
        options.options = .mapping(pairs, config.mark)
        // A config equal to an entity's own would make the source fetch that entity once per parent
        // (its nested route); this one is always a single index, whatever its options.
        options.mark = Mark(
            file: "\(config.mark.file) (live query)", line: config.mark.line, column: config.mark.column)
        self.entity = derived
        self.config = options
        self.local = local
    }

    /// The request for one object at `path` (`people/7`, or a `Location`'s path): no
    /// parameters, order or paging.
    init(object entity: EntityMapping, path: String, model: MappingModel) throws {
        var single = entity
        single.path = path
        single.nestedPath = nil
        single.sort = []
        try self.init(
            single, conditions: [:], sort: nil, limit: nil, offset: nil, localOnly: [], model: model, paged: false)
    }

    /// Whether an object's values meet the local conditions.
    func matches(_ values: [String: Value]) -> Bool {
        local.allSatisfy { $0.value.matches(values[$0.attribute]) }
    }

    /// A value as a query parameter: JSON text (`true`, `12.5`, `2024-01-22`), `""` for null.
    static func text(_ value: Value) -> String {
        switch ValueConverter.json(from: value) {
        case .string(let text), .number(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .null: ""
        case let other: JSONWriter.serialize(other)
        }
    }

    private static func scalar(_ text: String, _ mark: Mark) -> YAMLNode {
        .scalar(YAMLScalar(text: text, style: .doubleQuoted, mark: mark))
    }

    private static func params(_ items: [(name: String, values: [String], isList: Bool)], mark: Mark) -> YAMLNode {
        .mapping(
            items.map { item in
                YAMLPair(
                    key: scalar(item.name, mark),
                    value: item.isList
                        ? .sequence(item.values.map { scalar($0, mark) }, mark) : scalar(item.values[0], mark))
            }, mark)
    }
}

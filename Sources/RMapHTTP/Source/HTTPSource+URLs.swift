import Foundation
import RMap

/// The index URLs of an ``HTTPSource``: an entity's index for one parent's values, its path,
/// query parameters, sort order and incremental cursor.
extension HTTPSource {
    /// The index of `entity` for one parent's `values`, with the entity's stored cursor for that parent.
    func index(
        of entity: EntityMapping, values: [String: String], fill: [String: Value], context: FetchContext
    ) -> Index {
        let cursor = context.cursors.parameter(for: entity, fill: fill)
        return Index(
            entity: entity, url: url(for: entity, values: values, model: context.model, cursor: cursor),
            body: settings.body, fill: fill,
            key: client.redact(url(for: entity, values: values, model: context.model)))
    }

    /// The index URL of `entity`, placeholders filled with `values`: path, suffix, `params`, `order`
    /// and, for an incremental fetch, the stored cursor as `incremental.param`.
    func url(
        for entity: EntityMapping, values: [String: String], model: MappingModel,
        cursor: (name: String, value: String)? = nil
    ) -> URL {
        let path = Template.fill(entity.nestedPath ?? entity.path, with: values, transform: Template.segment)
        var items: [(name: String, value: String)] = []
        for param in settings.params {
            let name = param.isList ? "\(param.name)[]" : param.name
            items += param.values.map { (name, Template.fill($0, with: values)) }
        }
        if settings.format == .jsonapi {
            items += JSONAPIQuery.items(for: entity, model: model)
        } else if !entity.sort.isEmpty {
            let terms = entity.sort.map { key in
                "\(Self.queryKey(key.attribute, of: entity, model: model)) \(key.descending ? "desc" : "asc")"
            }
            items.append(("order", terms.joined(separator: ",")))
        }
        if let cursor { items.append(cursor) }
        let trimmed = path.hasPrefix("/") ? String(path.dropFirst()) : path
        let base = URL(string: settings.site.absoluteString + "/" + trimmed + settings.suffix) ?? settings.site
        return QueryEncoding.appending(items, to: base)
    }

    /// The payload key a sort attribute goes by on the server: its JSON key, or its column for a key path.
    static func queryKey(_ attribute: String, of entity: EntityMapping, model: MappingModel) -> String {
        guard let mapping = entity.attribute(named: attribute) else { return model.inflector.underscore(attribute) }
        return mapping.keyPath.count == 1 ? mapping.keyPath[0] : mapping.column
    }
}

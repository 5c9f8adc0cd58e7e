import Foundation
import RMap

/// One entity's GraphQL query (`query:`) and where its records are (`records:`), and the
/// request for each of its pages.
struct GraphQLQuery: Sendable {
    /// The query text.
    var text: String
    /// The key path of the records, which may run through lists (`data.allPeople.edges.node`).
    var records: [String]
    /// Whether the query declares `$after` (the cursor of the next page) and `$first` (the page size).
    var usesAfter: Bool
    var usesFirst: Bool

    /// The query of `entity`.
    ///
    /// - Throws: ``PluginError`` at the entity when it has no `query:` or `records:`, or is
    ///   fetched per parent (GraphQL nests children in the query instead).
    init(_ entity: EntityMapping) throws(PluginError) {
        guard let text = entity.query, !text.isEmpty else {
            throw PluginError.invalidOptions(
                "graphql source: '\(entity.name)' needs 'query:', e.g. query: \"query($after: String) { allPeople(first: 100, after: $after) { pageInfo { hasNextPage endCursor } edges { node { id } } } }\"",
                at: entity.mark)
        }
        guard let records = entity.records else {
            throw PluginError.invalidOptions(
                "graphql source: '\(entity.name)' needs 'records:', the key path of its records in the answer, e.g. records: data.allPeople.edges.node",
                at: entity.mark)
        }
        if entity.nestedPath != nil {
            throw PluginError.invalidOptions(
                "graphql source: '\(entity.name)' cannot have 'nested_path'; nest the children in the parent's query",
                at: entity.mark)
        }
        self.text = text
        self.records = records
        usesAfter = text.contains(#/\$after\b/#)
        usesFirst = text.contains(#/\$first\b/#)
    }

    /// The request of the page after `cursor` (the first page without one).
    func request(endpoint: URL, after cursor: String?, pageSize: Int?) -> HTTPRequest {
        var variables = JSONObject()
        if usesAfter { variables["after"] = cursor.map(JSONValue.string) ?? .null }
        if usesFirst, let pageSize { variables["first"] = .number(String(pageSize)) }
        return HTTPRequest(
            .post, url: endpoint,
            json: .object(JSONObject([("query", .string(text)), ("variables", .object(variables))])))
    }
}

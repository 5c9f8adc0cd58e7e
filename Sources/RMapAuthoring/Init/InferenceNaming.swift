import RMap

/// The names ``MappingInference`` gives: entities from file names, root keys
/// and URL paths, attributes and relationships from payload keys, all with
/// the project's Rails inflector so the loader's defaults find them again.
struct InferenceNaming: Sendable {
    /// The entity prefix: `CRM`.
    var prefix: String
    /// The inflector the mapping file will be loaded with.
    var inflector: Inflector

    /// `CRMPerson` for `people`, `people.json`'s stem or the root key `person`;
    /// hyphens and spaces count as underscores, numbers, `page` and a leading `get` are dropped.
    func entity(from word: String) -> String {
        var segments = snakeCase(word).split(separator: "_").map(String.init)
            .filter { Int($0) == nil && $0 != "page" }
        if segments.count > 1, segments.first == "get" { segments.removeFirst() }
        let base = segments.isEmpty ? "record" : segments.joined(separator: "_")
        return prefix + inflector.camelize(inflector.singularize(base))
    }

    /// `person` for `CRMPerson`: the entity's element, as the loader derives it.
    func element(of entity: String) -> String {
        inflector.underscore(entity.hasPrefix(prefix) ? String(entity.dropFirst(prefix.count)) : entity)
    }

    /// `firstName` for `first_name`; a key with other characters than letters,
    /// digits and underscores gets a name from its word characters.
    func property(_ key: String) -> String {
        let name = inflector.camelize(snakeCase(key), uppercaseFirstLetter: false)
        guard let first = name.first, first.isLetter else { return "value" + inflector.camelize(name) }
        return name
    }

    /// `teamMembers` for `team_member`: a to-many relationship's name.
    func plural(_ base: String) -> String {
        inflector.camelize(inflector.pluralize(base), uppercaseFirstLetter: false)
    }

    /// True when the loader's `snake_case` rule finds `key` from `name` by itself.
    func isDefaultKey(_ key: String, of name: String) -> Bool {
        inflector.underscore(name) == key
    }

    /// `search_issues` for `search-issues`; other characters but letters and digits become `_`.
    private func snakeCase(_ word: String) -> String {
        let mapped = word.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
        return mapped.split(separator: "_").joined(separator: "_")
    }
}

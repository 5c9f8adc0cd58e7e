import Foundation

/// The registered acronyms and the two patterns built from them, as Rails'
/// `Inflections#acronym` keeps them.
///
/// Acronyms are looked up by their lowercase form; registering a word whose
/// lowercase form is already known replaces it in place. The patterns try the
/// acronyms in registration order and match them case-sensitively.
struct AcronymTable: Sendable, Hashable {
    /// Lowercase keys in the order they were first registered.
    private var keys: [String] = []
    private var byLowercase: [String: String] = [:]

    /// Matches what `camelize(_, uppercaseFirstLetter: false)` lowercases at
    /// the start of a term: a whole leading acronym, else the first word character.
    private(set) var leadingAcronymOrCharacter = AcronymTable.leadingPattern(alternatives: Self.neverMatches)

    /// Matches an acronym inside a camel-cased word: group 1 is the letter or
    /// digit before it (when there is one), group 2 the acronym.
    private(set) var embeddedAcronym = AcronymTable.embeddedPattern(alternatives: Self.neverMatches)

    /// The acronym registered for `lowercased`, as it appears in a camelized word.
    subscript(lowercased: String) -> String? { byLowercase[lowercased] }

    /// Registers `word` (e.g. `"HTML"`, `"RESTful"`) under its lowercase form.
    mutating func add(_ word: String) {
        let key = word.lowercased()
        if byLowercase.updateValue(word, forKey: key) == nil { keys.append(key) }
        let alternatives = keys.compactMap { byLowercase[$0] }
            .map(NSRegularExpression.escapedPattern(for:))
            .joined(separator: "|")
        leadingAcronymOrCharacter = Self.leadingPattern(alternatives: alternatives)
        embeddedAcronym = Self.embeddedPattern(alternatives: alternatives)
    }

    static func == (lhs: AcronymTable, rhs: AcronymTable) -> Bool {
        lhs.keys == rhs.keys && lhs.byLowercase == rhs.byLowercase
    }

    func hash(into hasher: inout Hasher) {
        for key in keys {
            hasher.combine(key)
            hasher.combine(byLowercase[key])
        }
    }

    // MARK: - Patterns

    /// An alternative that matches nothing, standing for an empty acronym list.
    private static let neverMatches = "(?!)"

    private static func leadingPattern(alternatives: String) -> CompiledPattern {
        CompiledPattern(constant: "^(?:(?:\(alternatives))(?=\\b|[A-Z_])|\\w)")
    }

    private static func embeddedPattern(alternatives: String) -> CompiledPattern {
        CompiledPattern(constant: "(?:(?<=([A-Za-z0-9]))|\\b)(\(alternatives))(?=\\b|[^a-z])")
    }
}

import Foundation

/// An uncountable word and its matcher: the word as the last word of a term,
/// ignoring case (`/\bword\Z/i`), so `"funky jeans"` is uncountable through
/// `jeans` while `"sponsor"` is not through `ors`.
struct UncountableWord: Sendable, Hashable {
    /// The word, lowercased.
    let word: String
    private let compiled: CompiledPattern

    /// Creates the matcher for `word`, which is lowercased.
    init(_ word: String) {
        self.word = word.lowercased()
        compiled = CompiledPattern(
            constant: "(?i)\\b" + NSRegularExpression.escapedPattern(for: self.word) + "\\Z")
    }

    /// Whether `term` ends in this word.
    func matches(_ term: String) -> Bool { compiled.matches(term) }

    static func == (lhs: UncountableWord, rhs: UncountableWord) -> Bool { lhs.word == rhs.word }

    func hash(into hasher: inout Hasher) { hasher.combine(word) }
}

import Foundation

/// One `(rule, replacement)` pair of a plural, singular or human rule list.
///
/// Two rules are equal when their pattern, case sensitivity and replacement
/// are; the compiled forms are derived from those.
struct InflectionRule: Sendable, Hashable {
    /// The ICU pattern as given.
    let pattern: String
    /// Whether the whole pattern ignores case (Ruby's `/…/i`).
    let caseInsensitive: Bool
    /// The replacement as given.
    let replacement: String

    private let compiled: CompiledPattern
    private let template: ReplacementTemplate

    /// Creates a rule. A `pattern` that is not a valid regular expression
    /// matches its own text literally.
    init(pattern: String, caseInsensitive: Bool = true, replacement: String) {
        self.pattern = pattern
        self.caseInsensitive = caseInsensitive
        self.replacement = replacement
        let literal = NSRegularExpression.escapedPattern(for: pattern)
        compiled =
            (try? CompiledPattern(pattern, caseInsensitive: caseInsensitive))
            ?? CompiledPattern(constant: caseInsensitive ? "(?i)" + literal : literal)
        template = ReplacementTemplate(replacement)
    }

    /// Ruby's `sub`: `word` with the first match replaced, or `nil` when the
    /// rule does not match.
    func apply(to word: String) -> String? {
        compiled.replacingFirstMatch(in: word) { template.expand($0) }
    }

    static func == (lhs: InflectionRule, rhs: InflectionRule) -> Bool {
        lhs.pattern == rhs.pattern && lhs.caseInsensitive == rhs.caseInsensitive
            && lhs.replacement == rhs.replacement
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(pattern)
        hasher.combine(caseInsensitive)
        hasher.combine(replacement)
    }
}

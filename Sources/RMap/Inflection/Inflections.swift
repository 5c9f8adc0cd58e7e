import Foundation

/// A set of inflection rules: how words are pluralized, singularized, humanized,
/// and which acronyms keep their capitalization. A value type, so a mapping can
/// copy ``english`` and add its own rules without touching anyone else's.
///
/// It mirrors Rails' `ActiveSupport::Inflector::Inflections`: rules added later
/// are tried first, so your rules run before the built-in ones.
///
/// ```swift
/// var rules = Inflections.english
/// rules.irregular("cactus", "cacti")
/// rules.uncountable(["metadata"])
/// rules.acronym("API")
/// let inflector = Inflector(rules)
/// inflector.pluralize("cactus")          // "cacti"
/// inflector.camelize("api_controller")   // "APIController"
/// ```
///
/// Rule patterns are ICU regular expressions matched case-insensitively, like
/// Rails' `/…/i` rules; write `(?-i)` at the start of a pattern to make it
/// case-sensitive. `^` and `$` match at line boundaries as in Ruby. A pattern
/// that is not a valid regular expression matches its own text literally.
/// Replacements use Ruby's syntax: `\1` (written `"\\1"` in Swift) or `$1`
/// insert a capture group; a group that took no part in the match inserts
/// nothing.
public struct Inflections: Sendable, Hashable {
    /// Plural rules in the order they were added; applied last-added first.
    private(set) var plurals: [InflectionRule] = []
    /// Singular rules in the order they were added; applied last-added first.
    private(set) var singulars: [InflectionRule] = []
    /// Human rules in the order they were added; applied last-added first.
    private(set) var humans: [InflectionRule] = []
    /// Words that are neither pluralized nor singularized.
    private(set) var uncountables: [UncountableWord] = []
    /// Words that keep their capitalization through camelize, underscore,
    /// humanize and titleize.
    private(set) var acronyms = AcronymTable()

    /// An empty rule set: no rules, no uncountables, no acronyms. Inflecting
    /// with it returns words unchanged (apart from case and separators).
    public init() {}

    // MARK: - Adding rules

    /// Adds a pluralization rule, tried before every rule added so far.
    ///
    /// The first rule whose pattern matches replaces its first match with
    /// `replacement`; later rules are not tried. Like Rails, this removes
    /// `rule` and `replacement` from the uncountable words.
    ///
    /// ```swift
    /// rules.plural("^(ox)$", "\\1en")   // ox -> oxen
    /// ```
    /// - Parameters:
    ///   - rule: A regular expression, matched ignoring case.
    ///   - replacement: The text replacing the match; `\1` or `$1` insert group 1.
    public mutating func plural(_ rule: String, _ replacement: String) {
        removeUncountable(rule)
        removeUncountable(replacement)
        plurals.append(InflectionRule(pattern: rule, replacement: replacement))
    }

    /// Adds a singularization rule, tried before every rule added so far.
    ///
    /// Like Rails, this removes `rule` and `replacement` from the uncountable
    /// words, so `singular("series", "serie")` makes "series" singularize.
    ///
    /// ```swift
    /// rules.singular("^(ox)en", "\\1")   // oxen -> ox
    /// ```
    /// - Parameters:
    ///   - rule: A regular expression, matched ignoring case.
    ///   - replacement: The text replacing the match; `\1` or `$1` insert group 1.
    public mutating func singular(_ rule: String, _ replacement: String) {
        removeUncountable(rule)
        removeUncountable(replacement)
        singulars.append(InflectionRule(pattern: rule, replacement: replacement))
    }

    /// Adds an irregular word to both directions at once, ahead of all other
    /// rules, and removes both forms from the uncountable words.
    ///
    /// The word also inflects at the end of a compound (`salesperson` ->
    /// `salespeople`), and the first letter keeps its case (`Person` ->
    /// `People`), even when the two forms start with different letters
    /// (`cow`/`kine`: `Cow` -> `Kine`).
    ///
    /// ```swift
    /// rules.irregular("person", "people")
    /// ```
    /// - Parameters:
    ///   - singular: The singular form, e.g. `"person"`.
    ///   - plural: The plural form, e.g. `"people"`.
    public mutating func irregular(_ singular: String, _ plural: String) {
        removeUncountable(singular)
        removeUncountable(plural)
        guard let s0 = singular.first, let p0 = plural.first else { return }
        let sRest = String(singular.dropFirst())
        let pRest = String(plural.dropFirst())
        let escapedSRest = escapedPattern(sRest)
        let escapedPRest = escapedPattern(pRest)

        if s0.uppercased() == p0.uppercased() {
            let s0Group = "(" + escapedPattern(String(s0)) + ")"
            let p0Group = "(" + escapedPattern(String(p0)) + ")"
            addPlural(s0Group + escapedSRest + "$", "\\1" + escapedReplacement(pRest))
            addPlural(p0Group + escapedPRest + "$", "\\1" + escapedReplacement(pRest))
            addSingular(s0Group + escapedSRest + "$", "\\1" + escapedReplacement(sRest))
            addSingular(p0Group + escapedPRest + "$", "\\1" + escapedReplacement(sRest))
        } else {
            // The first letter is matched with its case so it can be mapped to
            // the other form's first letter in the same case.
            for (from, rest) in [(s0, escapedSRest), (p0, escapedPRest)] {
                let upperFrom = escapedPattern(from.uppercased()) + "(?i)" + rest + "$"
                let lowerFrom = escapedPattern(from.lowercased()) + "(?i)" + rest + "$"
                addPlural(upperFrom, escapedReplacement(p0.uppercased() + pRest), caseInsensitive: false)
                addPlural(lowerFrom, escapedReplacement(p0.lowercased() + pRest), caseInsensitive: false)
                addSingular(upperFrom, escapedReplacement(s0.uppercased() + sRest), caseInsensitive: false)
                addSingular(lowerFrom, escapedReplacement(s0.lowercased() + sRest), caseInsensitive: false)
            }
        }
    }

    /// Marks words as uncountable: `pluralize` and `singularize` return any
    /// term whose last word is one of them unchanged.
    ///
    /// Matching ignores case and looks at the end of the term after a word
    /// boundary (`/\bword\Z/i`): `"funky jeans"` and `"Sheep"` stay as they
    /// are, `"sponsor"` is not caught by an uncountable `"ors"`, and
    /// `"sea_fish"` is not caught by `"fish"` because `_` joins words.
    ///
    /// ```swift
    /// rules.uncountable(["equipment", "metadata"])
    /// ```
    /// - Parameter words: The words, in any case.
    public mutating func uncountable(_ words: [String]) {
        uncountables += words.map(UncountableWord.init)
    }

    /// Registers an acronym, written as it should appear in a camelized word.
    ///
    /// The acronym must occur as a delimited unit to be recognized: with
    /// `"HTTP"`, `camelize("my_http_delimited")` is `"MyHTTPDelimited"` but
    /// `camelize("https")` stays `"Https"` and `underscore("HTTPS")` is
    /// `"http_s"`. Any word with non-standard capitalization that starts with
    /// a capital letter works, e.g. `"RESTful"` or `"McDonald"`.
    ///
    /// ```swift
    /// rules.acronym("HTML")
    /// // camelize("html") == "HTML", underscore("MyHTML") == "my_html",
    /// // titleize("html") == "HTML"
    /// ```
    /// - Parameter word: The acronym, e.g. `"API"`.
    public mutating func acronym(_ word: String) {
        acronyms.add(word)
    }

    /// Adds a rule that `humanize` applies before its usual formatting; the
    /// first matching human rule (last added first) is the only one applied.
    ///
    /// ```swift
    /// rules.human("_cnt$", "_count")     // jargon_cnt -> "Jargon count"
    /// rules.human("(?-i)legacy_col_person_name", "Name")
    /// ```
    /// - Parameters:
    ///   - rule: A regular expression, matched ignoring case.
    ///   - replacement: The text replacing the match; `\1` or `$1` insert group 1.
    public mutating func human(_ rule: String, _ replacement: String) {
        humans.append(InflectionRule(pattern: rule, replacement: replacement))
    }

    // MARK: - Queries

    /// Whether `term` ends in an uncountable word.
    func isUncountable(_ term: String) -> Bool {
        uncountables.contains { $0.matches(term) }
    }

    // MARK: - Helpers

    private mutating func removeUncountable(_ word: String) {
        uncountables.removeAll { $0.word == word }
    }

    private mutating func addPlural(_ rule: String, _ replacement: String, caseInsensitive: Bool = true) {
        plurals.append(InflectionRule(pattern: rule, caseInsensitive: caseInsensitive, replacement: replacement))
    }

    private mutating func addSingular(_ rule: String, _ replacement: String, caseInsensitive: Bool = true) {
        singulars.append(InflectionRule(pattern: rule, caseInsensitive: caseInsensitive, replacement: replacement))
    }
}

/// `text` as a pattern that matches it literally.
private func escapedPattern(_ text: String) -> String {
    NSRegularExpression.escapedPattern(for: text)
}

/// `text` as a replacement that inserts it literally.
private func escapedReplacement(_ text: String) -> String {
    text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "$", with: "\\$")
}

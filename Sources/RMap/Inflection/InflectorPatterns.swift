/// The fixed patterns of ``Inflector``'s conversions, compiled once. Each
/// mirrors the Ruby pattern of ActiveSupport's `Inflector` method named.
enum InflectorPatterns {
    /// `camelize`: the lowercase word at the start that gets capitalized.
    static let leadingLowercaseWord = CompiledPattern(constant: "^[a-z0-9]*")

    /// `camelize`: an `_` or `/` (group 1) and the word after it (group 2).
    static let camelizeSegment = CompiledPattern(constant: "(?i)(?:_|(/))([a-z0-9]*)")

    /// `underscore`: a term needs work only if it has a capital, a dash or `::`.
    static let camelCaseMarker = CompiledPattern(constant: "[A-Z-]|::")

    /// `underscore`: the character before a new word, a capital before a
    /// capitalized word (group 1) or a lowercase letter or digit before a
    /// capital (group 2).
    static let wordStart = CompiledPattern(constant: "([A-Z])(?=[A-Z][a-z])|([a-z0-9])(?=[A-Z])")

    /// `humanize`: a word, letters of any script and digits.
    static let humanWord = CompiledPattern(constant: "[\\p{Alphabetic}0-9]+")

    /// `humanize`: the first character when it is a word character.
    static let firstWordCharacter = CompiledPattern(constant: "\\A\\w")

    /// `titleize`: a lowercase letter starting a word, unless it follows an
    /// apostrophe, a backtick or a parenthesis after a word character.
    static let titleLetter = CompiledPattern(constant: "\\b(?<!\\w['’`()])[a-z]")

    /// `classify`: a leading schema name up to the last dot.
    static let schemaPrefix = CompiledPattern(constant: ".*\\.")
}

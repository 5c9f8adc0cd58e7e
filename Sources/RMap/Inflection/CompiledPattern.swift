import Foundation

/// An ICU regular expression with the two Ruby string operations the inflector
/// is written in terms of: `sub` (replace the first match) and `gsub` (replace
/// every match), each computing the replacement from the match.
///
/// Patterns are compiled with `^` and `$` matching at line boundaries, as they
/// always do in Ruby.
struct CompiledPattern: Sendable {
    private let regex: NSRegularExpression

    /// Compiles `pattern`.
    /// - Throws: the ICU error when `pattern` is not a valid regular expression.
    init(_ pattern: String, caseInsensitive: Bool = false) throws {
        var options: NSRegularExpression.Options = [.anchorsMatchLines]
        if caseInsensitive { options.insert(.caseInsensitive) }
        regex = try NSRegularExpression(pattern: pattern, options: options)
    }

    /// Compiles a pattern that is a constant of this module (so known to be valid).
    init(constant pattern: String) {
        do {
            try self.init(pattern)
        } catch {
            preconditionFailure("invalid built-in inflector pattern \(pattern): \(error)")
        }
    }

    /// Whether the pattern matches anywhere in `string`.
    func matches(_ string: String) -> Bool {
        let text = string as NSString
        return regex.firstMatch(in: string, range: NSRange(location: 0, length: text.length)) != nil
    }

    /// Ruby's `sub`: `string` with its first match replaced by `replacement(match)`,
    /// or `nil` when nothing matches.
    func replacingFirstMatch(in string: String, with replacement: (PatternMatch) -> String) -> String? {
        let text = string as NSString
        let whole = NSRange(location: 0, length: text.length)
        guard let result = regex.firstMatch(in: string, range: whole) else { return nil }
        let match = PatternMatch(text: text, result: result)
        return text.substring(to: result.range.location) + replacement(match)
            + text.substring(from: NSMaxRange(result.range))
    }

    /// Ruby's `gsub`: `string` with every match replaced by `replacement(match)`.
    func replacingAllMatches(in string: String, with replacement: (PatternMatch) -> String) -> String {
        let text = string as NSString
        let results = regex.matches(in: string, range: NSRange(location: 0, length: text.length))
        guard !results.isEmpty else { return string }
        var output = ""
        var cursor = 0
        for result in results {
            output += text.substring(with: NSRange(location: cursor, length: result.range.location - cursor))
            output += replacement(PatternMatch(text: text, result: result))
            cursor = NSMaxRange(result.range)
        }
        return output + text.substring(from: cursor)
    }
}

/// One match of a ``CompiledPattern``: its text and its capture groups.
struct PatternMatch {
    fileprivate let text: NSString
    fileprivate let result: NSTextCheckingResult

    /// The whole matched text (Ruby's `$&`).
    var matched: String { text.substring(with: result.range) }

    /// The text before the match (Ruby's `` $` ``).
    var before: String { text.substring(to: result.range.location) }

    /// The text after the match (Ruby's `$'`).
    var after: String { text.substring(from: NSMaxRange(result.range)) }

    /// Capture group `index`, or `nil` when the pattern has no such group or
    /// the group took no part in the match (Ruby's `$1`, `$2`, …).
    subscript(group index: Int) -> String? {
        guard index < result.numberOfRanges else { return nil }
        let range = result.range(at: index)
        guard range.location != NSNotFound else { return nil }
        return text.substring(with: range)
    }
}

/// The replacement string of an inflection rule, parsed once.
///
/// Follows Ruby's `String#sub` replacement syntax as Rails' rules use it:
/// `\1`…`\9` insert a capture group, `\0` and `\&` the whole match, `` \` ``
/// and `\'` the text before and after the match, `\\` a backslash. A group
/// that does not exist or took no part in the match inserts nothing; any other
/// character is copied as it is. As an addition to Ruby, `$0`…`$9` are accepted
/// as spellings of `\0`…`\9`, and `\$` inserts a dollar sign.
struct ReplacementTemplate: Sendable, Hashable {
    private enum Part: Sendable, Hashable {
        case literal(String)
        case group(Int)
        case before
        case after
    }

    private let parts: [Part]

    /// Parses `replacement`.
    init(_ replacement: String) {
        var parts: [Part] = []
        var literal = ""
        func emit(_ part: Part) {
            if !literal.isEmpty { parts.append(.literal(literal)) }
            literal = ""
            parts.append(part)
        }
        var characters = replacement[...]
        while let character = characters.popFirst() {
            guard character == "\\" || character == "$", let next = characters.first else {
                literal.append(character)
                continue
            }
            if let digit = next.wholeNumberValue, next.isASCII {
                emit(.group(digit))
            } else if character == "$" {
                literal.append(character)
                continue
            } else {
                switch next {
                case "&": emit(.group(0))
                case "`": emit(.before)
                case "'": emit(.after)
                case "\\": literal.append("\\")
                case "$": literal.append("$")
                default:
                    literal.append(character)
                    continue
                }
            }
            characters.removeFirst()
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        self.parts = parts
    }

    /// The replacement text for `match`.
    func expand(_ match: PatternMatch) -> String {
        var output = ""
        for part in parts {
            switch part {
            case .literal(let text): output += text
            case .group(let index): output += match[group: index] ?? ""
            case .before: output += match.before
            case .after: output += match.after
            }
        }
        return output
    }
}

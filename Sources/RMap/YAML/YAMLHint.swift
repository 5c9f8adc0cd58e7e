/// What to look at for the libyaml problems a person meets most, written after libyaml's own
/// words: most are indentation, or an unquoted value holding characters YAML reserves.
enum YAMLHint {
    /// The hints, by the start of libyaml's problem text.
    static let hints: [(problem: String, hint: String)] = [
        (
            "did not find expected key",
            "check the indentation: the keys of one mapping start in the same column"
        ),
        (
            "mapping values are not allowed in this context",
            "check the indentation: a key is indented under a value on the line above, or an unquoted value "
                + "holds ': ' (quote it)"
        ),
        (
            "did not find expected '-' indicator",
            "check the indentation: the items of one list start in the same column"
        ),
        (
            "block sequence entries are not allowed in this context",
            "check the indentation: a list under a key starts on the next line, indented"
        ),
        (
            "did not find expected ',' or '}'",
            "inside { }, a value holding '{', '}', '[', ']' or ',' must be quoted: \"${VAR}/people.json\""
        ),
        (
            "did not find expected ',' or ']'",
            "inside [ ], a value holding '{', '}', '[', ']' or ',' must be quoted: \"${VAR}\""
        ),
    ]

    /// `problem` with its hint in parentheses, when libyaml's words have one.
    static func explained(_ problem: String) -> String {
        guard let found = hints.first(where: { problem.hasPrefix($0.problem) }) else { return problem }
        return "\(problem) (\(found.hint))"
    }
}

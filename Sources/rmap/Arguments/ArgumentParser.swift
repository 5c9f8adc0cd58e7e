import RMap

/// Parses one subcommand's arguments against its ``CommandSpec``, following
/// swift-argument-parser's conventions: `--opt value` and `--opt=value`,
/// flags without values, `--` ending options, `-` as a positional argument.
///
/// Help flags are handled before parsing (``HelpRequest``), so they win over
/// any error.
struct ArgumentParser {
    /// The command being parsed.
    var spec: CommandSpec

    /// The flags, option values and positional arguments of `arguments`.
    ///
    /// - Throws: ``UsageError`` for an unknown option, a missing or unexpected
    ///   value, or missing or unexpected positional arguments.
    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments(command: spec)
        var remaining = arguments[...]
        var optionsEnded = false
        while let argument = remaining.popFirst() {
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
            } else if argument == "--" {
                optionsEnded = true
            } else {
                try parseOption(argument, remaining: &remaining, into: &parsed)
            }
        }
        try checkPositionals(parsed.positionals)
        return parsed
    }

    private func parseOption(
        _ argument: String, remaining: inout ArraySlice<String>, into parsed: inout ParsedArguments
    ) throws(UsageError) {
        let body = argument.hasPrefix("--") ? argument.dropFirst(2) : argument.dropFirst()
        let name = String(body.prefix { $0 != "=" })
        let inline = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
        let isShort = !argument.hasPrefix("--") && name.count == 1
        guard let option = isShort ? name.first.flatMap(spec.option(short:)) : spec.option(named: name),
            isShort || argument.hasPrefix("--")
        else {
            let known = spec.options.map { "--\($0.spec.name)" } + ["--help"]
            let written = inline == nil ? argument : String(argument.prefix { $0 != "=" })
            throw error("unknown option '\(written)'\(Suggestion.hint(for: written, in: known))")
        }
        guard option.valueName != nil else {
            if inline != nil { throw error("the option '--\(option.name)' takes no value") }
            parsed.record(option, nil)
            return
        }
        let value: String
        if let inline {
            value = inline
        } else if let next = remaining.first, next == "-" || !next.hasPrefix("-") {
            value = next
            remaining.removeFirst()
        } else {
            throw error("missing value for '\(option.synopsis)'")
        }
        parsed.record(option, value)
    }

    private func checkPositionals(_ positionals: [String]) throws(UsageError) {
        if let expected = spec.positionals, expected.count == .oneOrMore, positionals.isEmpty {
            throw error("missing expected argument '\(expected.label)'")
        }
        if spec.positionals == nil, let first = positionals.first {
            throw error("unexpected argument '\(first)'")
        }
    }

    private func error(_ message: String) -> UsageError {
        spec.usageError(message)
    }
}

/// Finds `-h` / `--help` among a command's arguments (before `--`).
enum HelpRequest {
    /// True when the arguments ask for help.
    static func isPresent(in arguments: some Sequence<String>) -> Bool {
        arguments.prefix { $0 != "--" }.contains { $0 == "-h" || $0 == "--help" }
    }
}

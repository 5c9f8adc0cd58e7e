import RMap

/// `rmap inspect MAPPING...`: show what every name resolved to.
struct InspectCommand: CLICommand {
    static let spec = CommandSpec(
        name: "inspect",
        abstract: "Show what every name in the mapping files resolved to.",
        positional: "mapping",
        positionalHelp: "The mapping files (YAML), merged into one model.",
        options: [
            .value(
                "format", "format",
                "text (default), json, mermaid (an erDiagram) or dot\n(a Graphviz digraph).")
        ],
        discussion: """
            Secret values read from the environment (${VAR} whose name contains TOKEN, SECRET,
            PASSWORD or KEY, or used under auth, headers or a password) are shown as ***.
            """)

    /// The mapping files.
    var mappings: [String]
    /// `--format`.
    var format: InspectFormat

    init(_ arguments: ParsedArguments) throws(UsageError) {
        mappings = arguments.positionals
        let text = arguments.value("format") ?? InspectFormat.text.rawValue
        guard let format = InspectFormat(rawValue: text) else {
            let names = InspectFormat.allCases.map(\.rawValue)
            throw Self.spec.usageError(
                "the value '\(text)' is invalid for '--format <format>': expected one of "
                    + names.joined(separator: ", ") + Suggestion.hint(for: text, in: names))
        }
        self.format = format
    }

    func run(_ context: CommandContext) async -> ExitCode {
        guard let model = context.loadModel(mappings) else { return .usage }
        context.output.write(format.render(model))
        return .success
    }
}

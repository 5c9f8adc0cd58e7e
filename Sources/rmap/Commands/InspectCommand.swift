import RMap
import RMapAuthoring

/// `rmap inspect MAPPING...`: show what every name resolved to.
struct InspectCommand: CLICommand {
    /// `--format`.
    static let format = Option<InspectFormat?>.choice(
        "format", "text (default), json, mermaid (an erDiagram) or dot\n(a Graphviz digraph).")

    static let spec = CommandSpec(
        name: "inspect",
        abstract: "Show what every name in the mapping files resolved to.",
        positionals: .mappings,
        options: [format],
        discussion: """
            Secret values read from the environment (${VAR} whose name contains TOKEN, SECRET,
            PASSWORD or KEY, or used under auth, headers or a password) are shown as ***.
            """,
        exitStatuses: [(.success, "the model was printed"), (.usage, ExitCode.usageMeaning)])

    /// The mapping files.
    var mappings: [String]
    /// `--format`.
    var format: InspectFormat

    init(_ arguments: ParsedArguments) throws(UsageError) {
        mappings = arguments.positionals
        format = try arguments.value(Self.format) ?? .text
    }

    func run(_ context: CommandContext) async -> ExitCode {
        guard let model = context.loadModel(mappings) else { return .usage }
        context.output.write(format.render(model))
        return .success
    }
}

import RMap

/// `rmap schema`: the JSON Schema of the mapping-file format, for editors.
struct SchemaCommand: CLICommand {
    static let spec = CommandSpec(
        name: "schema",
        abstract: "Print the JSON Schema of mapping files, for editors that validate and complete YAML.",
        discussion: """
            Prints one JSON Schema (draft 2020-12) document on stdout: every key of a mapping
            file with its type, values, default and meaning, and the options of every plugin
            this program has. Save it and name it on the first line of a mapping file:
              rmap schema > rmap.schema.json
              # yaml-language-server: $schema=rmap.schema.json
            """,
        exitStatuses: [(.success, "the schema was printed"), (.usage, "usage error")])

    init(_ arguments: ParsedArguments) throws(UsageError) {}

    func run(_ context: CommandContext) async -> ExitCode {
        context.output.line(JSONWriter.serialize(MappingSchema.document(catalog: context.registry.catalog)))
        return .success
    }
}

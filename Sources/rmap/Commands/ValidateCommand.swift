import RMap

/// `rmap validate MAPPING...`: load the mapping files and report every problem.
struct ValidateCommand: CLICommand {
    /// `--json`.
    static let json = Option.json("Print the result as one JSON document (as --format json).")
    /// `--format`.
    static let format = Option<Format?>.choice(
        "format",
        "text (default), json, or github: one GitHub Actions\n'::error file=...,line=...,col=...::message' line per problem."
    )

    static let spec = CommandSpec(
        name: "validate",
        abstract: "Check mapping files and report every problem, with its file, line and column.",
        positionals: .mappings,
        options: [json, format],
        discussion: """
            Prints 'ok: N entities in M files' and exits 0 when the files are valid; otherwise
            prints one 'file:line:col: message' line per problem to stderr and exits 2. With
            --format github the problems go to stdout as workflow commands, which annotate the
            files in a pull request.
            """,
        exitStatuses: [(.success, "the files are valid"), (.usage, "usage error, or the files have problems")])

    /// How the result is printed.
    enum Format: String, CaseIterable {
        /// `ok: ...` or `file:line:col: message` lines on stderr.
        case text
        /// One JSON document.
        case json
        /// GitHub Actions `::error` workflow commands on stdout.
        case github
    }

    /// The mapping files.
    var mappings: [String]
    /// `--format`, or `json` for `--json`.
    var format: Format

    init(_ arguments: ParsedArguments) throws(UsageError) {
        mappings = arguments.positionals
        let json = try arguments.value(Self.json)
        format = try arguments.value(Self.format) ?? (json ? .json : .text)
    }

    func run(_ context: CommandContext) async -> ExitCode {
        let result: Result<MappingModel, MappingError>
        do {
            result = .success(try MappingLoader(catalog: context.registry.catalog).load(mappings))
        } catch {
            result = .failure(error)
        }
        switch (format, result) {
        case (.json, _):
            context.output.line(JSONWriter.serialize(document(result)))
        case (_, .success(let model)):
            context.output.line(
                "ok: \(count(model.entities.count, "entity", "entities")) in \(count(mappings.count, "file", "files"))")
        case (.github, .failure(let error)):
            for issue in error.issues { context.output.line(GitHubAnnotation.error(issue)) }
        case (.text, .failure(let error)):
            for issue in error.issues { context.errors.line(issue.description) }
        }
        if case .failure = result { return .usage }
        return .success
    }

    /// `{"valid": ..., "files": [...], "entities": N, "errors": [...]}`.
    private func document(_ result: Result<MappingModel, MappingError>) -> JSONValue {
        var entities = 0
        var issues: [MappingIssue] = []
        switch result {
        case .success(let model): entities = model.entities.count
        case .failure(let error): issues = error.issues
        }
        return .object(
            JSONObject([
                ("valid", .bool(issues.isEmpty)), ("files", .array(mappings.map(JSONValue.string))),
                ("entities", .number(String(entities))), ("errors", .array(issues.map(\.jsonObject))),
            ]))
    }

    private func count(_ number: Int, _ singular: String, _ plural: String) -> String {
        "\(number) \(number == 1 ? singular : plural)"
    }
}

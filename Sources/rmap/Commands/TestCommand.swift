import RMap
import RMapHTTP

/// `rmap test TESTFILE...`: runs mapping test cases, each a payload and the objects it must map to.
struct TestCommand: CLICommand {
    /// `--format`.
    static let format = Option<Format?>.choice(
        "format", "text (default): a line per case and one per difference; junit: a JUnit XML\nreport for CI.")

    static let spec = CommandSpec(
        name: "test",
        abstract: "Run mapping test cases: payloads and the objects each must map to.",
        positionals: Positionals(
            placeholder: "test", help: "The test files (YAML): the mapping files they test and their cases."),
        options: [format],
        discussion: """
            Each case maps its payload with the mapping files (its entity reads the payload,
            no other entity fetches, a memory store) and compares the objects of each entity
            it names with the ones it expects: exactly those, by identity, with the attributes
            and relationships each names. A case may then edit, create and delete objects
            locally and compare the requests a push would send (as rmap diff prints them)
            with the ones it expects. Failures print what differs, with the line of the
            test file that expects it (docs/cli.md#rmap-test).
            """,
        exitStatuses: [
            (.success, "every case passed"), (.failure, "a case failed"),
            (.usage, "usage error, or an error in a test or mapping file"),
        ])

    /// How the results are printed.
    enum Format: String, CaseIterable {
        /// `ok`/`FAIL` lines.
        case text
        /// A JUnit XML report.
        case junit
    }

    /// The test files.
    var files: [String]
    /// `--format`.
    var format: Format

    init(_ arguments: ParsedArguments) throws(UsageError) {
        files = arguments.positionals
        format = try arguments.value(Self.format) ?? .text
    }

    func run(_ context: CommandContext) async -> ExitCode {
        var results: [MappingTestResult] = []
        for file in files {
            do {
                let suite = try MappingTestSuite.load(file)
                let model = try MappingLoader(catalog: context.registry.catalog).load(suite.mappings)
                let runner = MappingTestRunner(model: model, registry: context.registry) { [model] store in
                    try Pusher(model: model).plan(store)
                }
                for testCase in suite.cases {
                    results.append(
                        MappingTestResult(file: file, name: testCase.name, failures: await runner.run(testCase)))
                }
            } catch {
                for issue in error.issues { context.errors.line(issue.description) }
                return .usage
            }
        }
        switch format {
        case .text: context.output.write(MappingTestResult.text(results))
        case .junit: context.output.write(JUnitReport.xml(results))
        }
        return results.allSatisfy(\.passed) ? .success : .failure
    }
}

/// One case's outcome as `rmap test` reports it.
struct MappingTestResult {
    /// The test file.
    var file: String
    /// The case's name.
    var name: String
    /// What differed; empty when it passed.
    var failures: [MappingTestFailure]

    /// True when nothing differed.
    var passed: Bool { failures.isEmpty }

    /// `ok    file: name`, `FAIL  file: name` and its differences, then the totals.
    static func text(_ results: [MappingTestResult]) -> String {
        let lines = results.flatMap { result in
            ["\(result.passed ? "ok  " : "FAIL")  \(result.file): \(result.name)"]
                + result.failures.map { "        \($0)" }
        }
        let failed = results.filter { !$0.passed }.count
        let cases = results.count == 1 ? "1 case" : "\(results.count) cases"
        return (lines + ["\(cases): \(results.count - failed) passed, \(failed) failed"]).joined(separator: "\n") + "\n"
    }
}

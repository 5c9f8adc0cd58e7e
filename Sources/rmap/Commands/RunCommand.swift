import RMap

/// `rmap run MAPPING...`: fetch, map, connect and store.
struct RunCommand: CLICommand {
    static let spec = CommandSpec(
        name: "run",
        abstract: "Fetch, map, connect and store the records the mapping files describe.",
        positional: "mapping",
        positionalHelp: "The mapping files (YAML), merged into one model.",
        options: [
            .value("store", "url", OptionValues.storeHelp),
            .flag("strict", "Fail on any rejected record or dangling reference;\nnothing is written."),
            .flag("dry-run", "Do everything but commit the store's transaction."),
            .flag("json", "Print the run's report as one JSON document."),
            .flag("quiet", "Show no progress."),
            .value("jobs", "n", "Fetch at most n payloads at once."),
            .value(
                "only", "entity", repeats: true,
                "Run only these entities (repeat the option or give\na comma-separated list)."),
            .flag("full", "Ignore the stored cursors (fetch everything), then\nreset them to this run's."),
            .flag("singer", "Read a Singer tap's message stream on standard input\nfor every entity (docs/singer.md)."),
        ],
        discussion: ExitCode.helpText([
            .success: "success",
            .failure: "the run failed; nothing was written",
            .usage: ExitCode.usageMeaning,
            .rejected: "finished with rejected records or dangling references (without --strict)",
        ]))

    /// The mapping files.
    var mappings: [String]
    /// `--store`.
    var store: PluginConfig?
    /// `--strict`.
    var strict: Bool
    /// `--dry-run`.
    var dryRun: Bool
    /// `--json`.
    var json: Bool
    /// `--quiet`.
    var quiet: Bool
    /// `--jobs`.
    var jobs: Int?
    /// `--only`, in order.
    var only: [String]
    /// `--full`.
    var full: Bool
    /// `--singer`.
    var singer: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        mappings = arguments.positionals
        store = try OptionValues.store(arguments, Self.spec)
        strict = arguments.flag("strict")
        dryRun = arguments.flag("dry-run")
        json = arguments.flag("json")
        quiet = arguments.flag("quiet")
        jobs = try OptionValues.jobs(arguments, Self.spec)
        only = try OptionValues.only(arguments, Self.spec)
        full = arguments.flag("full")
        singer = arguments.flag("singer")
    }

    func run(_ context: CommandContext) async -> ExitCode {
        let progress = ProgressReporter(output: context.errors, quiet: quiet, redraw: !json)
        progress.report(.stageStarted("load"))
        guard let loaded = context.loadModel(mappings) else {
            progress.finish()
            return .usage
        }
        let model = singer ? loaded.readingSinger() : loaded
        progress.report(.stageFinished("load"))
        for name in only where model.entity(named: name) == nil {
            let hint = Suggestion.hint(for: name, in: model.entities.map(\.name))
            return context.fail("unknown entity '\(name)' in --only\(hint)", status: .usage)
        }
        let config = context.store(store, model: model)
        var options = RunOptions(
            strict: strict, dryRun: dryRun, only: Set(only), jobs: jobs ?? 4,
            store: dryRun ? DryRunStore.config(config) : config)
        options.full = full
        let result: RunResult
        do {
            result = try await Pipeline(model: model, registry: context.registry).run(options) {
                progress.report($0.redacted(by: model))
            }
        } catch let failure as StrictFailure {
            progress.finish()
            RunReportOutput(report: failure.report, model: model).printProblems(to: context.errors)
            if json { context.output.line(JSONWriter.serialize(failure.report.jsonDocument(status: "failed"))) }
            return context.fail(failure.description)
        } catch {
            progress.finish()
            let message = model.redact("\(error)")
            if json { context.output.line(JSONWriter.serialize(RunReportOutput.failureDocument(message))) }
            return context.fail(message)
        }
        progress.finish()
        let report = result.report
        let output = RunReportOutput(report: report, model: model)
        let status = report.hasProblems ? "rejected" : "ok"
        if json {
            context.output.line(JSONWriter.serialize(report.jsonDocument(status: status)))
        } else {
            context.output.write(output.table())
            output.printProblems(to: context.errors)
        }
        return report.hasProblems ? .rejected : .success
    }
}

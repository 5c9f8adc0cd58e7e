import Foundation
import RMap
import RMapHTTP

/// `rmap run MAPPING...`: fetch, map, connect and store.
struct RunCommand: CLICommand {
    /// `--store`.
    static let store = Option.store
    /// `--strict`.
    static let strict = Option.flag("strict", "Fail on any rejected record or dangling reference;\nnothing is written.")
    /// `--dry-run`.
    static let dryRun = Option.dryRun("Do everything but commit the store's transaction.")
    /// `--json`.
    static let json = Option.json("Print the run's report as one JSON document.")
    /// `--quiet`.
    static let quiet = Option.flag("quiet", "Show no progress.")
    /// `--jobs`.
    static let jobs = Option.jobs("Fetch at most n payloads at once.")
    /// `--only`, repeated or comma-separated: entity names, each once, in order.
    static let only = Option<[String]>(
        OptionSpec(
            name: "only", valueName: "entity", repeats: true,
            help: "Run only these entities (repeat the option or give\na comma-separated list).")
    ) { texts throws(InvalidOptionValue) in
        var names: [String] = []
        for text in texts {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard !parts.contains(where: \.isEmpty) else {
                throw InvalidOptionValue(text: text, reason: "expected entity names separated by commas")
            }
            for name in parts where !names.contains(name) { names.append(name) }
        }
        return names
    }
    /// `--full`.
    static let full = Option.flag(
        "full", "Ignore the stored cursors (fetch everything), then\nreset them to this run's.")
    /// `--singer`.
    static let singer = Option.flag(
        "singer", "Read a Singer tap's message stream on standard input\nfor every entity (docs/singer.md).")
    /// `--record`.
    static let record = Option.text(
        "record", "dir", "Save every HTTP exchange in this directory, secrets\nredacted (docs/cli.md).")
    /// `--replay`.
    static let replay = Option.text(
        "replay", "dir", "Answer every HTTP request from a directory made by\n--record; nothing is sent.")

    static let spec = CommandSpec(
        name: "run",
        abstract: "Fetch, map, connect and store the records the mapping files describe.",
        positionals: .mappings,
        options: [store, strict, dryRun, json, quiet, jobs, only, full, singer, record, replay],
        exitStatuses: [
            (.success, "success"),
            (.failure, "the run failed; nothing was written"),
            (.usage, ExitCode.usageMeaning),
            (.rejected, "finished with rejected records or dangling references (without --strict)"),
        ])

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
    /// `--record` or `--replay`.
    var exchanges: ExchangeOption?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        mappings = arguments.positionals
        store = try arguments.value(Self.store)
        strict = try arguments.value(Self.strict)
        dryRun = try arguments.value(Self.dryRun)
        json = try arguments.value(Self.json)
        quiet = try arguments.value(Self.quiet)
        jobs = try arguments.value(Self.jobs)
        only = try arguments.value(Self.only)
        full = try arguments.value(Self.full)
        singer = try arguments.value(Self.singer)
        exchanges = try ExchangeOption(
            record: try arguments.value(Self.record), replay: try arguments.value(Self.replay), command: Self.spec)
    }

    func run(_ context: CommandContext) async -> ExitCode {
        if let exchanges {
            do {
                context.registry.registerHTTP(exchanges: try exchanges.open())
            } catch {
                return context.fail(error.description)
            }
        }
        let progress = ProgressReporter(output: context.errors, quiet: quiet, redraw: !json)
        progress.report(.stageStarted("load"))
        let loaded = context.loadModel(mappings) { error in
            printJSON(RunReportOutput.invalidDocument(error.issues.map(\.jsonObject)), context)
        }
        guard let loaded else {
            progress.finish()
            return .usage
        }
        let model = singer ? loaded.readingSinger() : loaded
        progress.report(.stageFinished("load"))
        for name in only where model.entity(named: name) == nil {
            let message =
                "unknown entity '\(name)' in --only" + Suggestion.hint(for: name, in: model.entities.map(\.name))
            printJSON(RunReportOutput.invalidDocument(message: message), context)
            return context.fail(message, status: .usage)
        }
        let config = context.store(store, model: model)
        // A run that fails before it commits leaves no store file it created (diff would read it as empty).
        let file = StoreFile(config)
        let fileExisted = file.exists
        if !fileExisted { InterruptHandler.whenNothingWritten { file.removeIfEmpty() } }
        var options = RunOptions(
            strict: strict, dryRun: dryRun, only: Set(only), jobs: jobs ?? 4,
            store: dryRun ? DryRunStore.config(config) : config)
        options.full = full
        let result: RunResult
        do {
            result = try await Pipeline(model: model, registry: context.registry).run(options) {
                progress.report($0.redacted(by: model.redactor))
            }
        } catch let failure as StrictFailure {
            if !fileExisted { file.removeIfEmpty() }
            progress.finish()
            RunReportOutput(report: failure.report, model: model).printProblems(to: context.errors)
            if json { context.output.line(JSONWriter.serialize(failure.report.jsonDocument(status: "failed"))) }
            return context.fail(failure.description)
        } catch {
            if !fileExisted { file.removeIfEmpty() }
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
        if !dryRun { noteCreationsInFlight(context, model: model) }
        return report.hasProblems ? .rejected : .success
    }

    /// Says so when the push journal holds creations without a recorded answer: the run may have
    /// stored the server's objects for them beside their local rows (docs/push.md, "Runs and
    /// pushes that meet"). Best effort: a store the sync API cannot read says nothing.
    private func noteCreationsInFlight(_ context: CommandContext, model: MappingModel) {
        guard let count = try? SyncCommandStore.open(context, store, model: model).journalledCreations(), count > 0
        else { return }
        let (creations, has) = count == 1 ? ("creation", "has") : ("creations", "have")
        context.errors.line(
            "note: \(count) \(creations) sent by a push \(has) no recorded answer yet (the push journal): the "
                + "server's objects for them may now be stored beside their local rows, until the next "
                + "'rmap push' pairs them by idempotency key")
    }

    /// Prints `document` on stdout when `--json` was given.
    private func printJSON(_ document: JSONValue, _ context: CommandContext) {
        if json { context.output.line(JSONWriter.serialize(document)) }
    }
}

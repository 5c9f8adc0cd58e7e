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

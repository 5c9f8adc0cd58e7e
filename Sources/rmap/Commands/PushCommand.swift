import RMap
import RMapHTTP

/// `rmap push MAPPING...`: send local changes back to the server.
struct PushCommand: CLICommand {
    /// `--store`.
    static let store = Option.store
    /// `--dry-run`.
    static let dryRun = Option.dryRun("Print the requests instead of sending them.")
    /// `--jobs`.
    static let jobs = Option.jobs("Send at most n requests at once.")

    static let spec = CommandSpec(
        name: "push",
        abstract: "Send local changes back to the server, only what changed.",
        positionals: .mappings,
        options: [store, dryRun, jobs],
        exitStatuses: [
            (.success, "nothing is left pending (with --dry-run: the plan was printed)"),
            (.failure, "some change is still pending, or the push could not start"),
            (.usage, ExitCode.usageMeaning),
        ])

    /// The mapping files.
    var mappings: [String]
    /// `--store`.
    var store: PluginConfig?
    /// `--dry-run`.
    var dryRun: Bool
    /// `--jobs`.
    var jobs: Int?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        mappings = arguments.positionals
        store = try arguments.value(Self.store)
        dryRun = try arguments.value(Self.dryRun)
        jobs = try arguments.value(Self.jobs)
    }

    func run(_ context: CommandContext) async -> ExitCode {
        InterruptHandler.doing(.pushing)
        // The push blocks on its store between requests: on a thread of its own, not the pool's.
        return await OwnThread(label: "rmap.push").run { _ in await pushing(context) }
    }

    /// Plans or pushes on the caller's thread (``run(_:)``'s own).
    nonisolated(nonsending) private func pushing(_ context: CommandContext) async -> ExitCode {
        guard let model = context.loadModel(mappings) else { return .usage }
        do {
            let sync = try SyncCommandStore.open(context, store, model: model)
            let pusher = Pusher(model: model, jobs: jobs ?? 4)
            if dryRun {
                context.output.write(try pusher.plan(sync).text)
                return .success
            }
            let report = try await pusher.push(sync)
            context.errors.line(
                "push: \(report.sent) sent, \(report.acknowledged) acknowledged, \(report.pending.count) pending")
            for failure in report.pending { context.errors.line(failure.description) }
            return report.isComplete ? .success : .failure
        } catch {
            return context.fail("\(error)")
        }
    }
}

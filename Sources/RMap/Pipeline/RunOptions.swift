/// How `rmap run` (or a library caller) wants the pipeline to run.
public struct RunOptions: Sendable {
    /// Fail the run, writing nothing, on any rejected record or dangling reference.
    public var strict = false
    /// Do everything but commit.
    public var dryRun = false
    /// Fetch only these entities (all when empty).
    public var only: Set<String> = []
    /// How many source groups fetch at once.
    public var jobs = 4
    /// The store to write to, overriding the mapping files' `store:`.
    public var store: PluginConfig?
    /// Ignore the stored cursors (fetch incremental entities in full), then reset them to this run's.
    public var full = false

    /// Creates options.
    public init(
        strict: Bool = false, dryRun: Bool = false, only: Set<String> = [], jobs: Int = 4, store: PluginConfig? = nil
    ) {
        self.strict = strict
        self.dryRun = dryRun
        self.only = only
        self.jobs = jobs
        self.store = store
    }
}

import Foundation
import RMap
import Testing

/// `rmap run` killed (`SIGKILL`) at random moments while it writes: the store
/// must hold exactly what it held before or exactly what the run would have
/// written, never a mix; a SQLite file must pass `PRAGMA integrity_check`;
/// and the next run must succeed.
///
/// Each store alternates two versions of one data set (``KillDataset``).
/// Complete runs give the reference contents of each version first; then
/// each of ``kills`` runs is killed after a seeded random delay of up to
/// about a complete run's duration, checked, and followed by a complete run.
/// `RMAP_BINARY` may name a release build; `RMAP_KILL_PEOPLE` the data set's
/// size (people; each has four tasks), larger on a faster machine.
///
/// The kills run on a thread of their own (they sleep and wait for the
/// child), holding one of the ``ProcessSlots``.
@Suite("Killing rmap run while it writes", .serialized)
struct KillDuringRunTests {
    /// Kills per store: 5, or 15 in the full run (``TestDepth``).
    static let kills = TestDepth.repetitions(quick: 5, full: 15)
    /// People per version.
    static let people = Int(ProcessInfo.processInfo.environment["RMAP_KILL_PEOPLE"] ?? "") ?? 2000

    /// A store as `--store` names it and as the test reads it back.
    private struct Target: Sendable {
        var argument: String
        var contents: @Sendable () throws -> StoreContents
        /// The store's own consistency check, when it has one: `["ok"]` when it passes.
        var integrity: (@Sendable () throws -> [String])?
    }

    @Test func aKilledRunLeavesSQLiteWithTheOldOrTheNewContents() async throws {
        let directory = try StoreFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("kill.sqlite").path
        let target = Target(
            argument: "sqlite:\(path)", contents: { try StoreContents.sqlite(path) },
            integrity: { try StoreContents.sqliteIntegrity(path) })
        try await killRuns(into: target, directory: directory, seed: 0x5eed_0001)
    }

    @Test func aKilledRunLeavesPostgreSQLWithTheOldOrTheNewContents() async throws {
        let directory = try StoreFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try PostgresSchemas.url(for: directory)
        // PostgreSQL recovers its own files; what the test can see is the contents.
        let target = Target(
            argument: url, contents: { try StoreContents.postgres(url) }, integrity: nil)
        try await killRuns(into: target, directory: directory, seed: 0x5eed_0002)
    }

    // MARK: - The kills

    private func killRuns(into target: Target, directory: URL, seed: UInt64) async throws {
        // The runs are started on a thread of their own: asked here, where CLI tests do not run, none is.
        _ = try CLIRunner.binary()
        try await ProcessSlots.shared.holding {
            try await DedicatedThread.run { try killRunsBlocking(into: target, directory: directory, seed: seed) }.get()
        }
    }

    private func killRunsBlocking(into target: Target, directory: URL, seed: UInt64) throws {
        let data = try KillDataset(directory: directory, people: Self.people)
        try complete(data, version: 1, target)
        let version1 = try target.contents()
        let rewrite2 = try complete(data, version: 2, target)
        let expected = [1: version1, 2: try target.contents()]
        #expect(expected[1] != expected[2])
        let rewrite1 = try complete(data, version: 1, target)
        try #require(try target.contents() == expected[1], "a run of version 1 after 2 does not repeat version 1")
        // The shorter of two complete runs that rewrite everything: a busy machine slows some runs.
        let duration = min(rewrite1, rewrite2)

        var random = SplitMix64(seed: seed)
        var outcomes = KillOutcomes()
        for kill in 0..<Self.kills {
            let version = kill.isMultiple(of: 2) ? 2 : 1
            let delay = duration * Double.random(in: 0.1...1, using: &random)
            // Without --quiet, the run's progress says when its write transaction is open: from
            // its connect stage (which a streamed run connects in) to the end of its persist stage.
            let log = directory.appendingPathComponent("kill-\(kill).log")
            let child = try ChildProcess(
                try CLIRunner.binary().path, ["run", data.mappingPath(version), "--store", target.argument],
                log: log.path)
            sleep(delay)
            child.killNow()
            let killed = child.waitKilled()
            let progress = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            let writing = progress.contains("connect: started") && !progress.contains("persist: done")
            if let integrity = target.integrity { #expect(try integrity() == ["ok"], "kill \(kill) after \(delay)") }
            let contents = try target.contents()
            let old = contents == expected[3 - version]
            #expect(old || contents == expected[version], "kill \(kill) after \(delay): \(contents)")
            outcomes.count(killed: killed, old: old, writing: writing)
            try complete(data, version: version, target)
            #expect(try target.contents() == expected[version], "the run after kill \(kill)")
        }
        print("\(target.argument.prefix { $0 != ":" }): \(outcomes)")
        #expect(outcomes.whileWriting > 0, "no kill landed while a run wrote: a larger RMAP_KILL_PEOPLE is needed")
    }

    /// Runs `rmap run` on one version to its end; it must succeed. Returns how long it took.
    @discardableResult
    private func complete(_ data: KillDataset, version: Int, _ target: Target) throws -> Duration {
        let started = ContinuousClock.now
        let result = try CLIRunner.runBlocking(
            ["run", data.mappingPath(version), "--store", target.argument, "--quiet"], in: data.directory)
        try #require(result.status == 0, "rmap run of version \(version): \(result.stderr)")
        return ContinuousClock.now - started
    }

    /// Blocks the thread for `duration`: the child runs meanwhile.
    private func sleep(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
    }
}

/// Where the kills landed.
private struct KillOutcomes: CustomStringConvertible {
    /// Kills that left the old contents.
    var beforeCommit = 0
    /// Of those, kills while the run's write transaction was open (its connect and persist stages).
    var whileWriting = 0
    /// Kills that left the new contents.
    var afterCommit = 0
    /// Runs that had ended before their kill.
    var ended = 0

    mutating func count(killed: Bool, old: Bool, writing: Bool) {
        if !killed {
            ended += 1
        } else if old {
            beforeCommit += 1
            if writing { whileWriting += 1 }
        } else {
            afterCommit += 1
        }
    }

    var description: String {
        "\(beforeCommit) kills left the old contents (\(whileWriting) of them while writing), "
            + "\(afterCommit) the new, \(ended) runs had ended"
    }
}

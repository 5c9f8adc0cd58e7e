import Foundation

/// How often the randomised suites repeat: a few times in `scripts/test`, the
/// full count in `scripts/test --full` (which sets `RMAP_TEST_FULL=1`).
///
/// A suite that kills a program at random moments checks the same property on
/// every repetition; more repetitions make a rare interleaving likelier to
/// show, which is worth CI's time, not every contributor's.
enum TestDepth {
    /// `scripts/test --full` is running.
    static let full = ProcessInfo.processInfo.environment["RMAP_TEST_FULL"] == "1"

    /// `quick` repetitions, or `full` ones in the full run.
    static func repetitions(quick: Int, full: Int) -> Int { Self.full ? full : quick }
}

import Testing

/// The released `rmap` links jemalloc (docs/performance.md "The allocator"); debug and sanitizer
/// builds keep the C library's malloc, which the sanitizers replace with their own.
@Suite("rmap's allocator")
struct AllocatorTests {
    @Test("the release build allocates with jemalloc, other builds with the C library's malloc")
    func releaseBuildUsesJemalloc() async throws {
        let binary = try CLIRunner.binary()
        let released = binary.resolvingSymlinksInPath().deletingLastPathComponent().lastPathComponent == "release"
        // jemalloc prints its statistics at exit when asked to; glibc's malloc ignores the variable.
        let result = try await CLIRunner.run(["--version"], environment: ["MALLOC_CONF": "stats_print:true"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("Begin jemalloc statistics") == released, "\(binary.path)")
    }
}

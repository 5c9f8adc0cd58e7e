import Testing

/// The released `rmap` links jemalloc (docs/performance.md "The allocator"), with its own decay
/// times; debug and sanitizer builds keep the C library's malloc, which the sanitizers replace with their own.
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
        // Freed pages go back after 200 ms, not jemalloc's 10 s (RMapAllocator's malloc_conf).
        if released {
            #expect(result.stderr.contains("opt.dirty_decay_ms: 200"), "\(result.stderr.prefix(2000))")
            #expect(result.stderr.contains("opt.muzzy_decay_ms: 0"))
        }
    }
}

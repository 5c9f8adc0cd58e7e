import Testing

/// docs/plugins.md, followed as a user would: its Python stage and transformer run, and its
/// conformance example prints what the page shows.
@Suite("docs/plugins.md")
struct PluginsPageTests {
    @Test("every console session, file and example output is what the page shows")
    func page() async throws {
        let mismatches = try await DocWalk(page: "docs/plugins.md").mismatches()
        #expect(mismatches.isEmpty, "\(mismatches.map(\.description).joined(separator: "\n"))")
    }
}

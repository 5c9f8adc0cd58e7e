import RMap
import Testing

/// YAML aliases that multiply ("billion laughs"): capped with a clear error
/// long before memory runs out, while ordinary anchors and merges still load.
@Suite("Hostile input: YAML alias expansion")
struct AliasBombTests {
    /// Nine anchors, each a list of nine aliases of the one before: 9^9 strings from 342 bytes.
    static let bomb = """
        a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
        b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
        c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
        d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
        e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
        f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
        g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
        h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
        i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]

        """

    @Test("a billion laughs fails at the alias that passes 100,000 nodes; validate exits 2 at once")
    func billionLaughs() async throws {
        #expect(
            throws: YAMLError(
                mark: Mark(file: "t.yml", line: 6, column: 8),
                problem: "aliases expand to more than 100000 nodes (nested aliases multiply)")
        ) {
            try YAMLParser.parse(Self.bomb, file: "t.yml")
        }
        let workspace = try RunWorkspace(["m.yml": "rmap: 1\n" + Self.bomb])
        let result = try await workspace.rmap(["validate", "m.yml"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("m.yml:7:8: aliases expand to more than 100000 nodes"), "\(result.stderr)")
    }

    @Test("more than 10,000 aliases are an error at the first one past the limit")
    func aliasCount() throws {
        let text = "a: &a 1\nb: [" + Array(repeating: "*a", count: 10_001).joined(separator: ",") + "]\n"
        let column = 5 + 10_000 * 3
        #expect(
            throws: YAMLError(mark: Mark(file: "t.yml", line: 2, column: column), problem: "more than 10000 aliases")
        ) {
            try YAMLParser.parse(text, file: "t.yml")
        }
    }

    /// Found by fuzzing: nested aliases inside a `store:` block, which loading walks more than
    /// once (variable interpolation, then the comparison of the files' stores). At the earlier
    /// cap of 1,000,000 nodes such a block took over 60 s under AddressSanitizer.
    @Test("nested aliases in a store block stop at the node cap, at the alias that passes it")
    func storeBlock() async throws {
        let keys = (0..<10).map { "k\($0)" }
        func anchor(_ name: String, of value: String) -> String {
            "x-\(name): &\(name) {" + keys.map { "\($0): \(value)" }.joined(separator: ", ") + "}\n"
        }
        let text =
            "rmap: 1\n" + anchor("a0", of: "x") + anchor("a1", of: "*a0") + anchor("a2", of: "*a1")
            + anchor("a3", of: "*a2") + "store: {plugin: sqlite, path: x.db, "
            + keys.map { "\($0): *a3" }.joined(separator: ", ") + "}\n"
        let workspace = try RunWorkspace(["m.yml": text])
        let result = try await workspace.rmap(["validate", "m.yml"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("m.yml:6:"), "\(result.stderr)")
        #expect(result.stderr.contains("aliases expand to more than 100000 nodes"), "\(result.stderr)")
    }
}

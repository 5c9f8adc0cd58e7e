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

    @Test("a billion laughs fails at the alias that passes 1,000,000 nodes; validate exits 2 at once")
    func billionLaughs() throws {
        #expect(
            throws: YAMLError(
                mark: Mark(file: "t.yml", line: 7, column: 8),
                problem: "aliases expand to more than 1000000 nodes (nested aliases multiply)")
        ) {
            try YAMLParser.parse(Self.bomb, file: "t.yml")
        }
        let workspace = try RunWorkspace(["m.yml": "rmap: 1\n" + Self.bomb])
        let result = try workspace.rmap(["validate", "m.yml"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("m.yml:8:8: aliases expand to more than 1000000 nodes"), "\(result.stderr)")
    }

    @Test("more than 100,000 aliases are an error at the first one past the limit")
    func aliasCount() throws {
        let text = "a: &a 1\nb: [" + Array(repeating: "*a", count: 100_001).joined(separator: ",") + "]\n"
        let column = 5 + 100_000 * 3
        #expect(
            throws: YAMLError(mark: Mark(file: "t.yml", line: 2, column: column), problem: "more than 100000 aliases")
        ) {
            try YAMLParser.parse(text, file: "t.yml")
        }
    }
}

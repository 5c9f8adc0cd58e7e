import RMap
import Testing

@Suite("Built-in transformers")
struct BuiltinTransformersTests {
    @Test(
        "each rewrites strings as documented",
        arguments: [
            ("trim", "  a b \n", Value.string("a b")),
            ("lowercase", "ÉCOLE Ab", .string("école ab")),
            ("uppercase", "straße", .string("STRASSE")),
            ("capitalize", "hELLO wORLD", .string("Hello world")),
            ("squish", "  a \t\n b   c ", .string("a b c")),
            ("nullify_blank", " \t", .null),
            ("nullify_blank", "", .null),
            ("nullify_blank", " x ", .string(" x ")),
        ])
    func strings(name: String, input: String, output: Value) throws {
        let transformer = try #require(BuiltinTransformers.all[name])
        #expect(transformer.transform(.string(input)) == output)
    }

    @Test("the names are the documented ones")
    func names() {
        #expect(
            BuiltinTransformers.all.keys.sorted() == [
                "capitalize", "lowercase", "nullify_blank", "squish", "trim", "uppercase",
            ])
    }

    @Test(
        "every built-in rewrites strings inside arrays, passes other values through and is pure",
        arguments: BuiltinTransformers.all.keys.sorted())
    func conformance(name: String) throws {
        let transformer = try #require(BuiltinTransformers.all[name])
        for value in [Value.null, .int(3), .bool(true), .double(1.5), .json(.string(" A "))] {
            #expect(transformer.transform(value) == value)
        }
        let single = try #require(transformer.transform(.string(" aB ")))
        let array = transformer.transform(.array([.string(" aB "), .int(1)]))
        #expect(array == .array([single, .int(1)]))
        #expect(transformer.transform(.string(" aB ")) == single)
    }
}

extension BuiltinTransformersTests {
    @Test(
        "trim removes Unicode whitespace as well as ASCII",
        arguments: [
            ("\u{00A0}a\u{2003}", "a"), (" \u{00A0} é ", "é"), ("é", "é"), (" \t\r\n", ""), ("a\u{0301} ", "a\u{0301}"),
        ])
    func trimUnicode(input: String, output: String) throws {
        #expect(try #require(BuiltinTransformers.all["trim"]).transform(.string(input)) == .string(output))
    }
}

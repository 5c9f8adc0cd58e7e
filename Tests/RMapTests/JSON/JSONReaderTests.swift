import Testing

@testable import RMap

@Suite("JSONReader")
struct JSONReaderTests {
    @Test("parses every kind of value, keeping key order")
    func everyKind() throws {
        let value = try JSONReader.parse(
            #"{"z": null, "t": true, "f": false, "n": -1.5e3, "s": "x", "a": [1, [], {}], "o": {"k": "v"}}"#,
            origin: "kinds.json")
        let object = try #require(value.object)
        #expect(object.keys == ["z", "t", "f", "n", "s", "a", "o"])
        #expect(object["z"] == .null)
        #expect(object["t"] == .bool(true))
        #expect(object["f"] == .bool(false))
        #expect(object["n"] == .number("-1.5e3"))
        #expect(object["s"] == .string("x"))
        #expect(object["a"] == .array([.number("1"), .array([]), .object(JSONObject())]))
        #expect(object["o"] == .object(JSONObject([("k", .string("v"))])))
    }

    @Test(
        "top-level scalars",
        arguments: [
            ("null", JSONValue.null), ("true", .bool(true)), (" 42 ", .number("42")), (#""hi""#, .string("hi")),
        ])
    func scalars(text: String, expected: JSONValue) throws {
        #expect(try JSONReader.parse(text, origin: "scalar.json") == expected)
    }

    @Test(
        "numbers keep their literal text",
        arguments: [
            "12.50", "-0", "1e5", "1E+05", "-2.5e-3", "0.000", "123456789012345678901234567890", "1e400",
        ])
    func numberText(literal: String) throws {
        #expect(try JSONReader.parse("[\(literal)]", origin: "n.json") == .array([.number(literal)]))
        #expect(try JSONReader.parse(literal, origin: "n.json") == .number(literal))
    }

    @Test(
        "escapes and unicode decode",
        arguments: [
            (#""a\"b\\c\/d""#, "a\"b\\c/d"),
            (#""\b\f\n\r\t""#, "\u{8}\u{C}\n\r\t"),
            (#""\u00e9\u4e2d""#, "é中"),
            (#""\ud83d\ude00 smile""#, "😀 smile"),
            ("\"raw é 😀\"", "raw é 😀"),
            (#""""#, ""),
        ])
    func strings(text: String, expected: String) throws {
        #expect(try JSONReader.parse(text, origin: "s.json") == .string(expected))
    }

    @Test("reads Data-like byte collections and arrays")
    func byteInputs() throws {
        let bytes = Array(#"{"a": [1, 2]}"#.utf8)
        #expect(try JSONReader.parse(bytes, origin: "b.json") == JSONReader.parse(bytes[...], origin: "b.json"))
        #expect(try JSONReader.parse(bytes, origin: "b.json").object?["a"] == .array([.number("1"), .number("2")]))
    }

    @Test(
        "errors name the origin, the position and the problem",
        arguments: [
            ("[1, 2", "e.json:1:6: invalid JSON: unexpected end inside an array or object"),
            (#"{"a": "x"#, "e.json:1:9: invalid JSON: unexpected end inside a string"),
            ("[1 2]", "e.json:1:4: invalid JSON: a missing or misplaced comma, colon, bracket or brace"),
            (#"{"a": 1,}"#, "e.json:1:9: invalid JSON: a missing or misplaced comma, colon, bracket or brace"),
            ("[01]", "e.json:1:2: invalid JSON: invalid number"),
            ("[1.]", "e.json:1:2: invalid JSON: invalid number"),
            ("[tru]", "e.json:1:2: invalid JSON: expected a value"),
            ("12 ]", "e.json:1:4: invalid JSON: unexpected content after the value"),
            ("true x", "e.json:1:6: invalid JSON: unexpected content after the value"),
            (#"{"a": 1}}"#, "e.json:1:9: invalid JSON: unexpected content after the value"),
            (#"{"a": 1} x"#, "e.json:1:10: invalid JSON: unexpected content after the value"),
            ("  ", "e.json:1:3: invalid JSON: no value"),
            ("[\n  1,\n  x\n]", "e.json:3:3: invalid JSON: a missing or misplaced comma, colon, bracket or brace"),
            (#"["\x"]"#, "e.json:1:2: invalid JSON: invalid string (a bad escape or unpaired surrogate)"),
            ("[\"a\tb\"]", "e.json:1:4: invalid JSON: a control character inside a string"),
        ])
    func errors(text: String, expected: String) {
        #expect(throws: JSONError.self) { try JSONReader.parse(text, origin: "e.json") }
        do {
            _ = try JSONReader.parse(text, origin: "e.json")
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test("invalid UTF-8 is reported at the first bad byte")
    func invalidUTF8() throws {
        let bytes: [UInt8] = Array(#"["ok", "a"#.utf8) + [0xFF] + Array(#"b"]"#.utf8)
        let error = try #require(throws: JSONError.self) { try JSONReader.parse(bytes, origin: "u.json") }
        #expect(error.offset == 9)
        #expect(error.description == "u.json:1:10: invalid UTF-8")
    }
}

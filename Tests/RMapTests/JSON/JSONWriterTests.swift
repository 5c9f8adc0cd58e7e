import Testing

@testable import RMap

@Suite("JSONWriter")
struct JSONWriterTests {
    @Test("writes compact JSON with keys in order and numbers as written")
    func compact() {
        let value = JSONValue.object(
            JSONObject([
                ("b", .number("12.50")), ("a", .array([.null, .bool(true), .bool(false), .number("-0")])),
                ("o", .object(JSONObject())), ("e", .array([])), ("s", .string("x")),
            ]))
        #expect(JSONWriter.serialize(value) == #"{"b":12.50,"a":[null,true,false,-0],"o":{},"e":[],"s":"x"}"#)
    }

    @Test(
        "escapes quotes, backslashes and control characters",
        arguments: [
            ("a\"b", #""a\"b""#), ("back\\slash", #""back\\slash""#), ("line\nfeed\r\t", #""line\nfeed\r\t""#),
            ("\u{8}\u{C}", #""\b\f""#), ("\u{1}\u{1F}", #""\u0001\u001f""#), ("é 😀 /", "\"é 😀 /\""),
        ])
    func escapes(text: String, expected: String) {
        #expect(JSONWriter.serialize(.string(text)) == expected)
    }

    @Test(
        "parse and serialize round trip",
        arguments: [
            #"{"id":1,"price":12.50,"big":123456789012345678901234567890,"tags":["a","b\"q"],"geo":{"lat":-0,"e":1e5}}"#,
            #"[null,true,false,"\u0000\u001f","😀",[[[]]],{"":{}}]"#,
            #""plain""#,
        ])
    func roundTrip(text: String) throws {
        let value = try JSONReader.parse(text, origin: "rt.json")
        let written = JSONWriter.serialize(value)
        #expect(try JSONReader.parse(written, origin: "rt.json") == value)
        #expect(JSONWriter.serialize(try JSONReader.parse(written, origin: "rt.json")) == written)
    }
}

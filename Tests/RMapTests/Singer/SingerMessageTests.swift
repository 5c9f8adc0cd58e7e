import RMap
import Testing

@Suite("Singer messages")
struct SingerMessageTests {
    private func message(_ line: String) throws -> SingerMessage? {
        try SingerMessage(line: Array(line.utf8), number: 7, origin: "tap-x")
    }

    @Test("SCHEMA, RECORD, STATE and ACTIVATE_VERSION are read with their fields")
    func kinds() throws {
        #expect(
            try message(#"{"type":"SCHEMA","stream":"people","schema":{"type":"object"},"key_properties":["id"]}"#)
                == .schema(
                    stream: "people", keyProperties: ["id"],
                    schema: .object(JSONObject([("type", .string("object"))]))))
        #expect(
            try message(#"{"type":"RECORD","stream":"people","record":{"id":1},"version":3,"time_extracted":"x"}"#)
                == .record(stream: "people", record: .object(JSONObject([("id", .number("1"))])), version: 3))
        #expect(
            try message(#"{"type":"STATE","value":{"page":2}}"#)
                == .state(value: .object(JSONObject([("page", .number("2"))]))))
        #expect(
            try message(#"{"type":"ACTIVATE_VERSION","stream":"people","version":1700000000000}"#)
                == .activateVersion(stream: "people", version: 1_700_000_000_000))
    }

    @Test("blank lines and message types rmap does not use are skipped")
    func skipped() throws {
        #expect(try message("  ") == nil)
        #expect(try message(#"{"type":"BATCH","stream":"people"}"#) == nil)
    }

    @Test(
        "a malformed message is an error naming the line",
        arguments: [
            (#"{"type":"RECORD","stream":"people"}"#, "tap-x line 7: RECORD has no 'record'"),
            (
                #"{"type":"RECORD","stream":"","record":{}}"#,
                "tap-x line 7: RECORD needs a non-empty string 'stream', found \"\""
            ),
            (
                #"{"type":"RECORD","stream":"people","record":[1]}"#,
                "tap-x line 7: RECORD needs an object 'record', found an array"
            ),
            (
                #"{"type":"SCHEMA","stream":"p","schema":{},"key_properties":"id"}"#,
                "tap-x line 7: SCHEMA needs 'key_properties' to be a list of strings, found a string"
            ),
            (#"{"type":"ACTIVATE_VERSION","stream":"p"}"#, "tap-x line 7: ACTIVATE_VERSION has no 'version'"),
            (#"{"type":"STATE"}"#, "tap-x line 7: STATE has no 'value'"),
            (#"[1]"#, "tap-x line 7: expected a Singer message object, found an array"),
        ])
    func malformed(line: String, expected: String) throws {
        let error = #expect(throws: SingerError.self) { try message(line) }
        #expect(error?.description == expected)
    }

    @Test("a line that is not JSON names the line")
    func notJSON() throws {
        let error = #expect(throws: SingerError.self) { try message(#"{"type": RECORD}"#) }
        #expect(error?.line == 7)
        #expect(error?.description.hasPrefix("tap-x line 7: not JSON") == true)
    }
}

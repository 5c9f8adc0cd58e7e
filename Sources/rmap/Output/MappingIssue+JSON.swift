import RMap

extension MappingIssue {
    /// `{"file", "line", "column", "message"}`, as `rmap validate --json` and `rmap run --json` list errors.
    var jsonObject: JSONValue {
        .object(
            JSONObject([
                ("file", .string(mark.file)), ("line", .number(String(mark.line))),
                ("column", .number(String(mark.column))), ("message", .string(message)),
            ]))
    }
}

/// Values as people read them in messages, reports and plans.
public enum ValueText {
    /// Scalars as their stored text (`42`, `12.50`, `2024-01-02`); arrays and JSON as compact JSON.
    public static func display(_ value: Value) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .int(let number): String(number)
        case .double(let number): "\(number)"
        case .decimal(let number): number.text
        case .string(let text): text
        case .date(let date): date.description
        case .datetime(let stamp): stamp.description
        case .array, .json: JSONWriter.serialize(ValueConverter.json(from: value))
        }
    }

    /// A JSON value as compact JSON, shortened to `limit` characters for messages.
    public static func display(_ json: JSONValue, limit: Int = 80) -> String {
        let text = JSONWriter.serialize(json)
        return text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
    }
}

import RMap

/// The stored forms of MAPPING.md §5 for PostgreSQL, in the text format that
/// parameters, array literals and `COPY` carry and that results come back in.
///
/// Written: booleans `true`/`false`, decimals as received (`numeric` keeps
/// their scale, so `"12.50"` reads back `"12.50"`), dates `YYYY-MM-DD`,
/// date-times `YYYY-MM-DDTHH:MM:SS.sssZ`, arrays and JSON as JSON text.
/// Read back under the session settings ``PostgresStore`` makes (`TimeZone`
/// UTC, `DateStyle` ISO, shortest exact floats).
enum PostgresValueText {
    /// The text form of `value`; `nil` for SQL NULL.
    static func encode(_ value: Value) -> String? {
        switch value {
        case .null: nil
        case .bool(let flag): flag ? "true" : "false"
        case .int(let number): String(number)
        case .double(let number): encode(double: number)
        case .decimal(let number): number.text
        case .string(let text): text
        case .date(let date): date.description
        case .datetime(let stamp): stamp.description
        case .array, .json: ValueText.display(value)
        }
    }

    private static func encode(double number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        return "\(number)"
    }

    /// The ``Value`` of a column of `type` from its text; a text that does not parse is returned as a string.
    static func decode(_ text: String?, as type: AttributeType) -> Value {
        guard let text else { return .null }
        switch type {
        case .string, .url, .uuid:
            return .string(text)
        case .int:
            return Int64(text).map(Value.int) ?? .string(text)
        case .double:
            return decode(double: text).map(Value.double) ?? .string(text)
        case .decimal:
            return DecimalNumber(text).map(Value.decimal) ?? .string(text)
        case .bool:
            return text == "t" ? .bool(true) : text == "f" ? .bool(false) : .string(text)
        case .date:
            return LocalDate(iso: text).map(Value.date) ?? .string(text)
        case .datetime:
            return ValueConverter.value(from: .string(text), as: .datetime) ?? .string(text)
        case .array, .json:
            guard let json = try? JSONReader.parse(text, origin: "jsonb column"),
                let value = ValueConverter.value(from: json, as: type)
            else { return .string(text) }
            return value
        }
    }

    private static func decode(double text: String) -> Double? {
        switch text {
        case "NaN": .nan
        case "Infinity": .infinity
        case "-Infinity": -.infinity
        default: Double(text)
        }
    }

    /// An array literal (`{"1","2"}`) of the values' text forms, for `$1::text[]`.
    static func arrayLiteral(_ values: some Sequence<Value>) -> String {
        var literal = "{"
        var first = true
        for value in values {
            if !first { literal.append(",") }
            first = false
            guard let text = encode(value) else {
                literal.append("NULL")
                continue
            }
            literal.append("\"")
            for character in text.unicodeScalars {
                if character == "\"" || character == "\\" { literal.append("\\") }
                literal.unicodeScalars.append(character)
            }
            literal.append("\"")
        }
        literal.append("}")
        return literal
    }
}

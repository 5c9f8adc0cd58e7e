import RMap

/// Scalars and flow maps written as YAML text that the project's loader reads back.
///
/// libyaml's emitter writes no comments, and an inferred mapping is mostly
/// its comments, so ``MappingWriter`` writes text; this is the one place that
/// decides how a scalar is quoted.
enum YAMLText {
    /// `people` as is; `"http://host:3000"`, `"true"`, `"12"` or `""` double-quoted.
    static func scalar(_ text: String) -> String {
        let plain =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy { scalar in
                scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "_./-$".unicodeScalars.contains(scalar)
            }
        let reserved = ["true", "false", "yes", "no", "on", "off", "null", "y", "n", ".inf", ".nan"]
            .contains(text.lowercased())
        if plain, !reserved, Double(text) == nil, text.first != "-" { return text }
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\t": escaped += "\\t"
            default:
                escaped += scalar.value < 0x20 ? "\\x" + String(scalar.value, radix: 16).leftPadded(2) : String(scalar)
            }
        }
        return escaped + "\""
    }

    /// `{ type: int, required: true }`: pairs whose values are already YAML.
    static func flowMap(_ pairs: [(String, String)]) -> String {
        "{ " + pairs.map { "\(scalar($0.0)): \($0.1)" }.joined(separator: ", ") + " }"
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}

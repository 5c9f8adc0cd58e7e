/// Decodes `incremental: { cursor:, param:, initial:, lag:, format: }`.
extension EntityDecoder {
    /// The keys of `incremental:`.
    static let incrementalKeys = ["cursor", "param", "initial", "lag", "format"]

    /// The incremental fetch and the mark of its `cursor:` (where an unknown attribute is reported).
    func decodeIncremental(_ node: YAMLNode) -> (sync: IncrementalSync, mark: Mark)? {
        guard let pairs = diagnostics.keyedPairs(node, "'incremental'", allowed: Self.incrementalKeys) else {
            return nil
        }
        var cursor: (String, Mark)?
        var param: String?
        var sync = IncrementalSync(cursor: "", param: "")
        for (key, value) in pairs {
            switch key {
            case "cursor": cursor = diagnostics.string(value, "'cursor' of 'incremental'").map { ($0, value.mark) }
            case "param": param = diagnostics.string(value, "'param' of 'incremental'")
            case "initial": sync.initial = diagnostics.string(value, "'initial' of 'incremental'")
            case "lag":
                guard let text = diagnostics.string(value, "'lag' of 'incremental'") else { continue }
                guard let seconds = Self.duration(text) else {
                    diagnostics.error(value.mark, "'lag' is a duration such as 30s, 5m, 2h or 1d, found '\(text)'")
                    continue
                }
                sync.lag = seconds
            default: sync.format = diagnostics.string(value, "'format' of 'incremental'")
            }
        }
        guard let (name, mark) = cursor, let param, !param.isEmpty else {
            diagnostics.error(node.mark, "'incremental' needs 'cursor' (an attribute) and 'param' (a query parameter)")
            return nil
        }
        sync.cursor = name
        sync.param = param
        return (sync, mark)
    }

    /// Seconds in `30s`, `5m`, `2h`, `1d` or a bare number of seconds.
    static func duration(_ text: String) -> Int? {
        let units = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        let trimmed = text
        guard let last = trimmed.last else { return nil }
        let unit = units[String(last)]
        guard let number = Int(unit == nil ? trimmed : String(trimmed.dropLast())), number >= 0 else { return nil }
        return number * (unit ?? 1)
    }
}

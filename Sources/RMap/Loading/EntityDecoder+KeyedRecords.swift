/// Decodes `records:` written as a mapping: `{ key_as: login }` (records keyed by
/// a dictionary key, the key going into attribute `login`), with an optional `path`.
extension EntityDecoder {
    static let keyedRecordsKeys = ["path", "key_as"]

    func decodeKeyedRecords(_ node: YAMLNode, into entity: inout DeclaredEntity) {
        for (key, value) in diagnostics.keyedPairs(node, "'records'", allowed: Self.keyedRecordsKeys) ?? [] {
            switch key {
            case "path": entity.records = diagnostics.string(value, "'path'").map(Self.keyPath)
            default: entity.recordsKeyAs = diagnostics.string(value, "'key_as'").map { ($0, value.mark) }
            }
        }
        if entity.recordsKeyAs == nil {
            diagnostics.error(node.mark, "'records' of entity '\(entity.name)' as a mapping needs 'key_as'")
        }
    }
}

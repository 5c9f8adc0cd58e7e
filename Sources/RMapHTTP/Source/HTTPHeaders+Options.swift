import RMap

extension HTTPHeaders {
    /// Reads the `headers` option.
    init(_ reader: OptionReader) throws(PluginError) {
        self.init()
        for pair in try reader.mapping("headers") ?? [] {
            let name = try Self.fieldText(reader, pair.key, "a header name")
            self[name] = try Self.fieldText(reader, pair.value, "header '\(name)'")
        }
    }

    /// A scalar sent in a header line: one holding CR, LF or NUL (a variable's value, say) would
    /// end the line and start another header, so it is refused, naming `what`, never the value.
    static func fieldText(_ reader: OptionReader, _ node: YAMLNode, _ what: String) throws(PluginError) -> String {
        let text = try reader.text(node, what)
        guard !breaksLine(text) else {
            throw reader.fail(
                node, "\(what) holds a line break (CR or LF) or NUL, which would start another header (not shown)")
        }
        return text
    }
}

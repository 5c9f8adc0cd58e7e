import RMap

extension HTTPSourceSettings {
    /// The key that names the document format.
    static let formatKeys = ["format"]

    /// Reads `format`; JSON:API changes the defaults of the keys left out: no suffix, the next
    /// page at `links.next`, the page size in `page[size]`, and `Accept: application/vnd.api+json`.
    mutating func readFormat(_ reader: OptionReader) throws(PluginError) {
        guard let node = reader.options["format"], let name = try reader.string("format") else { return }
        guard let format = DocumentFormat(rawValue: name) else {
            let names = DocumentFormat.allCases.map(\.rawValue)
            throw reader.fail(
                node,
                "unknown format '\(name)' (expected \(names.joined(separator: " or ")))"
                    + Suggestion.hint(for: name, in: names))
        }
        self.format = format
        guard format == .jsonapi else { return }
        if reader.options["suffix"] == nil { suffix = "" }
        if reader.options["paginate"] == nil { pagination = .nextURL(JSONKeyPath(segments: ["links", "next"])) }
        if reader.options["size_param"] == nil { sizeParam = .query("page[size]") }
        if headers["Accept"] == nil { headers["Accept"] = DocumentFormat.jsonAPIMediaType }
    }
}

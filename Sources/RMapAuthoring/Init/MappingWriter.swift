import Foundation
import RMap

/// Writes an ``InferredMapping`` as a commented mapping file.
///
/// File sources name the payloads relative to the folder the mapping is
/// written to, as the loader resolves them; HTTP sources give the site and
/// each entity's `path`.
///
/// ```swift
/// let text = MappingWriter(folder: "/work/crm/mappings", currentDirectory: "/work/crm").text(mapping)
/// // source: { plugin: file, path: ../samples/people.json }
/// ```
public struct MappingWriter: Sendable {
    /// The absolute folder the file is written to.
    public var folder: String
    /// The absolute directory relative payload paths start from.
    public var currentDirectory: String

    /// Creates a writer for a file in `folder`.
    ///
    /// - Parameters:
    ///   - folder: the absolute folder the mapping file is written to.
    ///   - currentDirectory: the absolute directory relative payload paths start from.
    public init(folder: String, currentDirectory: String) {
        self.folder = folder
        self.currentDirectory = currentDirectory
    }

    /// The mapping file's text.
    public func text(_ mapping: InferredMapping) -> String {
        var lines = [
            "# Inferred by `rmap init` from sample payloads.",
            "# Review the lines marked 'check:', then `rmap validate` and `rmap run` this file.",
            "rmap: 1", "", "naming:",
        ]
        if !mapping.prefix.isEmpty { lines.append("  entity_prefix: \(YAMLText.scalar(mapping.prefix))") }
        lines += ["  attributes: snake_case", "", "entities:"]
        for entity in mapping.entities { lines += self.lines(entity) }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Entities

    private func lines(_ entity: InferredEntity) -> [String] {
        var lines = ["  \(YAMLText.scalar(entity.name)):  # \(entity.recordCount) record(s) in the samples"]
        lines += source(entity).map { "    " + $0 }
        if let records = entity.records { lines.append("    records: \(YAMLText.scalar(records))") }
        if let identity = entity.identity { lines.append("    identity: \(YAMLText.scalar(identity))") }
        if !entity.compositeIdentity.isEmpty {
            let names = entity.compositeIdentity.map(YAMLText.scalar).joined(separator: ", ")
            lines.append("    identity: [\(names)]  # check: no one key tells the records apart")
        }
        if let typeKey = entity.typeKey {
            let values = typeKey.values.joined(separator: ", ")
            lines.append(
                "    # type_key: \(typeKey.key)  # check: values \(values); declare sub-entities (extends) to use it")
        }
        lines.append("    attributes:")
        lines += entity.attributes.map { "      " + line($0) }
        guard !entity.relationships.isEmpty else { return lines + [""] }
        lines.append("    relationships:")
        lines += entity.relationships.map { "      " + line($0) }
        return lines + [""]
    }

    private func source(_ entity: InferredEntity) -> [String] {
        switch entity.source {
        case nil:
            return ["source: false  # only arrives nested in other entities' payloads (or included)"]
        case .file(let path):
            return ["source: " + YAMLText.flowMap([("plugin", "file"), ("path", YAMLText.scalar(relative(path)))])]
        case .http(let site, let path, let suffix, let query):
            var pairs = [("plugin", "http"), ("site", YAMLText.scalar(site))]
            if suffix != ".json" { pairs.append(("suffix", YAMLText.scalar(suffix))) }
            let paging = URLPaging(URLParts.parameters(query))
            pairs += paging.pairs
            if !paging.rest.isEmpty { pairs.append(("params", YAMLText.flowMap(Self.parameters(paging.rest)))) }
            return ["source: " + YAMLText.flowMap(pairs), "path: \(YAMLText.scalar(path))"]
        case .jsonAPI(let site, let path, let suffix):
            var pairs = [("plugin", "http"), ("site", YAMLText.scalar(site)), ("format", "jsonapi")]
            if !suffix.isEmpty { pairs.append(("suffix", YAMLText.scalar(suffix))) }
            let check = site.hasPrefix("${") ? "  # check: set API_URL, the site the documents come from" : ""
            return ["source: " + YAMLText.flowMap(pairs) + check, "path: \(YAMLText.scalar(path))"]
        }
    }

    /// Query parameters as YAML pairs: `sort: "asc"`, `access_token: "${ACCESS_TOKEN}"` (a secret's value is `nil`).
    private static func parameters(_ parameters: [(name: String, value: String?)]) -> [(String, String)] {
        parameters.map { name, value in
            let variable = "${" + name.uppercased().map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined() + "}"
            return (name, YAMLText.scalar(value ?? variable))
        }
    }

    // MARK: - Attributes and relationships

    /// `id: int`, or `city: { key: address.city, type: string, required: true }`.
    private func line(_ attribute: InferredAttribute) -> String {
        let type = attribute.type.isArray ? attribute.type.description : YAMLText.scalar(attribute.type.description)
        var pairs: [(String, String)] = []
        if let key = attribute.key { pairs.append(("key", Self.keyPath(key))) }
        pairs.append(("type", type))
        if let format = attribute.format { pairs.append(("format", YAMLText.scalar(format))) }
        if attribute.required { pairs.append(("required", "true")) }
        let value = pairs.count == 1 ? type : YAMLText.flowMap(pairs)
        return "\(YAMLText.scalar(attribute.name)): \(value)" + (attribute.comment.map { "  # \($0)" } ?? "")
    }

    /// `address.city`, or `[lamp.v2, on]` when a segment holds a dot.
    private static func keyPath(_ segments: [String]) -> String {
        guard segments.contains(where: { $0.contains(".") }) else {
            return YAMLText.scalar(segments.joined(separator: "."))
        }
        return "[" + segments.map(YAMLText.scalar).joined(separator: ", ") + "]"
    }

    private func line(_ relationship: InferredRelationship) -> String {
        var pairs = [(relationship.toMany ? "to_many" : "to_one", YAMLText.scalar(relationship.destination))]
        if relationship.nested { pairs.append(("nested", "true")) }
        if let key = relationship.key { pairs.append(("key", YAMLText.scalar(key))) }
        if let inverse = relationship.inverse { pairs.append(("inverse", YAMLText.scalar(inverse))) }
        if let foreignKey = relationship.foreignKey {
            let keys = YAMLText.flowMap([(foreignKey.source, YAMLText.scalar(foreignKey.destination))])
            pairs.append(("connect", YAMLText.flowMap([("foreign_key", keys)])))
        }
        let comment = relationship.comment.map { "  # \($0)" } ?? ""
        return "\(YAMLText.scalar(relationship.name)): \(YAMLText.flowMap(pairs))" + comment
    }

    /// `path` relative to ``folder``: `../samples/people.json`.
    private func relative(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : currentDirectory + "/" + path
        let target = DisplayPath.normalize(absolute).split(separator: "/")
        let base = DisplayPath.normalize(folder).split(separator: "/")
        let shared = zip(target, base).prefix { $0 == $1 }.count
        let ups = Array(repeating: "..", count: base.count - shared)
        return (ups + target.dropFirst(shared).map(String.init)).joined(separator: "/")
    }
}

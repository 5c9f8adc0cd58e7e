public import RMap

/// The ways `rmap inspect` shows a model: what every name in the mapping files resolved to.
///
/// ```swift
/// let model = try MappingLoader(catalog: registry.catalog).load(["crm.yml"])
/// print(InspectFormat.mermaid.render(model))
/// ```
public enum InspectFormat: String, Sendable, CaseIterable {
    /// Indented text for people (``ModelText``).
    case text
    /// One JSON document (``ModelDescription``).
    case json
    /// A Mermaid `erDiagram` (``MermaidDiagram``).
    case mermaid
    /// A Graphviz digraph (``DotGraph``).
    case dot

    /// The model rendered in this format, ending with a newline.
    ///
    /// Values the files read from the environment are redacted (``MappingModel/redact(_:)``).
    public func render(_ model: MappingModel) -> String {
        switch self {
        case .text: ModelText.render(model)
        case .json: JSONWriter.serialize(ModelDescription.document(of: model)) + "\n"
        case .mermaid: MermaidDiagram.render(model)
        case .dot: DotGraph.render(model)
        }
    }
}

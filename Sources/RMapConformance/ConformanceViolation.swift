/// A rule a plugin broke, found by ``SourceConformance`` or ``TransformerConformance``.
///
/// An empty list of violations is a pass: a plugin package asserts it in its own tests,
/// e.g. `#expect(violations.isEmpty, "\(violations)")`.
public struct ConformanceViolation: Sendable, Hashable, CustomStringConvertible {
    /// The plugin, e.g. `source 'csv' (mappings/people.yml:2:9)` or `transformer 'slug'`.
    public var plugin: String
    /// The rule broken, e.g. `passes on the pipeline's failure`.
    public var rule: String
    /// What was seen.
    public var detail: String

    /// Creates a violation.
    public init(plugin: String, rule: String, detail: String) {
        self.plugin = plugin
        self.rule = rule
        self.detail = detail
    }

    /// `plugin: rule: detail`.
    public var description: String { "\(plugin): \(rule): \(detail)" }
}

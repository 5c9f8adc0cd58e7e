public import RMap

/// The rules every ``Transformer`` follows (docs/plugins.md), checked on sample values:
///
/// - **pure**: the same value gives the same result, every time;
/// - **safe to share**: calls from many tasks at once give the results one task gets;
/// - **keeps the type**: the result is `nil` (the record is rejected), `null`, or a value
///   of the input's kind (a string for a string, an array for an array), since the
///   attribute's column has the input's type.
///
/// ```swift
/// let violations = await TransformerConformance.check(name: "slug", SlugTransformer())
/// #expect(violations.isEmpty, "\(violations)")
/// ```
public enum TransformerConformance {
    /// Values of every kind a transformer may be given (never `null`: transformers are not called with it).
    public static let samples: [Value] = [
        .string("  Ada  LOVELACE "), .string(""), .string("   "), .string("Zoë-Ångström"), .string("line\nbreak"),
        .int(42), .int(-1), .double(12.5), .bool(true), .decimal(DecimalNumber("12.50")!),
        .array([.string(" a "), .string("B")]), .array([]), .json(.object(JSONObject([("k", .string("v"))]))),
    ]

    /// The violations of `transformer` (registered as `name`) on `samples`.
    public static func check(
        name: String, _ transformer: any Transformer, samples: [Value] = samples
    ) async -> [ConformanceViolation] {
        let plugin = "transformer '\(name)'"
        var violations: [ConformanceViolation] = []
        let first = samples.map { transformer.transform($0) }
        for (sample, result) in zip(samples, first) {
            let again = transformer.transform(sample)
            if again != result {
                violations.append(
                    ConformanceViolation(
                        plugin: plugin, rule: "is pure",
                        detail: "\(shown(sample)) gave \(shown(result)), then \(shown(again))"))
            }
            if let result, !result.isNull, !sameKind(sample, result) {
                violations.append(
                    ConformanceViolation(
                        plugin: plugin, rule: "keeps the type", detail: "\(shown(sample)) became \(shown(result))"))
            }
        }
        let shared = await withTaskGroup(of: [Value?].self) { group in
            for _ in 0..<8 { group.addTask { samples.map { transformer.transform($0) } } }
            return await group.reduce(into: [[Value?]]()) { $0.append($1) }
        }
        for results in shared where results != first {
            violations.append(
                ConformanceViolation(
                    plugin: plugin, rule: "is safe to share",
                    detail: "tasks running at once got \(results.map(shown)), one task \(first.map(shown))"))
            break
        }
        return violations
    }

    private static func sameKind(_ input: Value, _ output: Value) -> Bool {
        switch (input, output) {
        case (.string, .string), (.int, .int), (.double, .double), (.bool, .bool), (.decimal, .decimal),
            (.date, .date), (.datetime, .datetime), (.array, .array), (.json, .json):
            true
        default: false
        }
    }

    private static func shown(_ value: Value?) -> String {
        value.map { ValueText.display($0) } ?? "nil"
    }
}

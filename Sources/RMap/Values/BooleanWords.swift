/// The texts a `bool` attribute reads (`true_values`, `false_values`), compared ignoring case.
///
/// ```swift
/// let words = BooleanWords(trueValues: ["y", "yes"], falseValues: ["n", "no"])
/// words.bool(for: "Y")  // true
/// ```
public struct BooleanWords: Sendable, Hashable {
    /// The texts that read as `true` (default `true`, `t`, `yes`, `1`).
    public var trueValues: [String]
    /// The texts that read as `false` (default `false`, `f`, `no`, `0`).
    public var falseValues: [String]

    /// The words a `bool` reads without `true_values` or `false_values`.
    public static let standard = BooleanWords(
        trueValues: ["true", "t", "yes", "1"], falseValues: ["false", "f", "no", "0"])

    /// Creates the words; each list replaces its side of ``standard``.
    public init(trueValues: [String], falseValues: [String]) {
        self.trueValues = trueValues.map { $0.lowercased() }
        self.falseValues = falseValues.map { $0.lowercased() }
    }

    /// `true` or `false` for a listed text, `nil` for any other.
    public func bool(for text: String) -> Bool? {
        let lowered = text.lowercased()
        if trueValues.contains(lowered) { return true }
        if falseValues.contains(lowered) { return false }
        return nil
    }
}

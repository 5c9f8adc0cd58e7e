import Foundation
import RMap

/// `window: {from, to, start, step}`: each index is fetched in successive half-open windows
/// `[from, to)` of ISO 8601 UTC times, `step` long, from `start` (or from where the last run's
/// windows ended) up to the run's start, each window's bounds sent as the parameters `from`
/// and `to` (Airbyte's and dlt's date-range backfills).
///
/// ```yaml
/// window: { from: updated_after, to: updated_before, start: "2024-01-01T00:00:00Z", step: 7d }
/// # ?updated_after=2024-01-01T00:00:00Z&updated_before=2024-01-08T00:00:00Z, then the next week, ...
/// ```
struct DateWindow: Sendable, Hashable {
    /// The run-state scope that keeps, per index, where its last completed window ended.
    static let scope = "http.window"
    /// The option's keys.
    static let keys: Set<String> = ["from", "to", "start", "step"]

    /// The parameter of a window's first instant (inclusive).
    var from: PagingParameter
    /// The parameter of the instant after a window (exclusive).
    var to: PagingParameter
    /// Where the first run's first window starts.
    var start: Date
    /// A window's length (the last one ends at the run's start, so it may be shorter).
    var step: Duration

    /// Reads `window`, or `nil` when absent; `post` allows `body.` parameters.
    init?(_ reader: OptionReader, post: Bool) throws(PluginError) {
        let example = "'window: {from: updated_after, to: updated_before, start: \"2024-01-01T00:00:00Z\", step: 7d}'"
        guard let node = try reader.block("window", allowed: Self.keys, example: example) else { return nil }
        func parameter(_ key: String) throws(PluginError) -> PagingParameter {
            let value = try reader.required(key, in: node, "'window'", example: example)
            return try PagingParameter(
                try reader.text(value, "'window.\(key)'"), post: post, node: value, reader: reader)
        }
        from = try parameter("from")
        to = try parameter("to")
        if from == to {
            throw reader.fail(node, "'window.from' and 'window.to' must be different parameters, both are '\(from)'")
        }
        let startNode = try reader.required("start", in: node, "'window'", example: example)
        let text = try reader.text(startNode, "'window.start'")
        guard let start = Self.date(text) else {
            throw reader.fail(
                startNode, "'window.start' must be an ISO 8601 time such as 2024-01-01T00:00:00Z, found '\(text)'")
        }
        self.start = start
        step = try reader.duration(try reader.required("step", in: node, "'window'", example: example), "'window.step'")
        if step < .seconds(1) {
            throw reader.fail(node["step"] ?? node, "'window.step' must be at least 1s: windows are whole seconds")
        }
    }

    /// The window after `lower` (whole seconds), ending at `lower + step` or at `end`, whichever
    /// comes first; `nil` when `lower` is `end` or later.
    func window(from lower: Date, until end: Date) -> (lower: Date, upper: Date)? {
        let end = Date(timeIntervalSince1970: end.timeIntervalSince1970.rounded(.down))
        guard lower < end else { return nil }
        let seconds = Double(step.components.seconds)
        return (lower, min(lower.addingTimeInterval(seconds), end))
    }

    /// Where an index's windows start: where the last run's ended (`stored`), or ``start``.
    func resume(_ stored: RunStateEntry?) -> Date {
        guard let text = stored?.value.string, let ended = Self.date(text) else { return start }
        return max(ended, start)
    }

    /// The request of an index (`base` and its `body`) limited to the window `[lower, upper)`.
    func request(_ lower: Date, _ upper: Date, base: URL, body: JSONValue?) -> PageRequest {
        PageRequest(
            base: base, body: body, values: [(from, .string(Self.text(lower))), (to, .string(Self.text(upper)))])
    }

    /// `2024-01-08T00:00:00Z`.
    static func text(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// An ISO 8601 date and time (any offset, fractions of a second allowed) or a date (midnight UTC).
    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [
            [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds], [.withFullDate],
        ] {
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}

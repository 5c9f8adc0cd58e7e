/// The text of a run's progress, from its ``ProgressEvent``s and the time each
/// arrived: a value with no clock and no output of its own (the `rmap` command
/// writes what it returns to stderr), so tests drive it.
///
/// Every style prints a line when a stage starts and ends, and one per entity
/// when its fetch ends (its records and those nested in them, where from, time,
/// rate), so that the lines add up to the report's `fetched`:
///
/// ```text
/// fetch: started
/// fetched CRMPerson: 12 records from samples/people.json (5.2 KiB) in 0.01s, 1,200 records/s
/// fetch: done in 0.02s
/// ```
///
/// ``Style/bar(color:)`` (a terminal) also keeps a status line under them,
/// redrawn in place at most every ``interval``: a bar with percent and ETA
/// where sources announced their work (bytes of files, pages of an index),
/// records/s otherwise.
///
/// ```text
/// fetch [=========>          ]  48%  1.2 MiB of 2.5 MiB, 8,120 records/s, ETA 3s
/// ```
///
/// ```swift
/// var renderer = ProgressRenderer(style: .lines)
/// renderer.apply(.stageStarted("fetch"), at: .zero)                 // "fetch: started\n"
/// renderer.apply(.stageFinished("fetch"), at: .milliseconds(20))    // "fetch: done in 0.02s\n"
/// ```
public struct ProgressRenderer: Sendable {
    /// How progress is drawn.
    public enum Style: Sendable, Equatable {
        /// A status line redrawn in place, its bar in colour or not.
        case bar(color: Bool)
        /// Lines only.
        case lines
    }

    /// What one entity's fetch did so far.
    private struct EntityProgress {
        var started: Duration
        var records = 0
        /// Records of other entities nested in this one's, by root entity, in the order they first came.
        var nested: [(entity: String, records: Int)] = []
        var payloads = 0
        var origin = ""
        var expected: [ProgressUnit: Int] = [:]
        var done: [ProgressUnit: Int] = [:]
    }

    /// The shortest time between two redraws of the status line.
    public static let interval = Duration.milliseconds(100)
    /// Carriage return and erase to the end of the line.
    public static let clearLine = "\r\u{1B}[K"
    private static let barWidth = 20

    public let style: Style
    private var stage: String?
    private var stageStarted = Duration.zero
    private var entities: [String: EntityProgress] = [:]
    private var lineShown = false
    private var lastDraw: Duration?

    /// A renderer with nothing shown yet.
    public init(style: Style) {
        self.style = style
    }

    /// The text to write for `event`, which arrived `now` after the run started ("" for none).
    @discardableResult
    public mutating func apply(_ event: ProgressEvent, at now: Duration) -> String {
        switch event {
        case .stageStarted(let name):
            stage = name
            stageStarted = now
            entities = [:]
            return style == .lines ? "\(name): started\n" : draw(at: now)
        case .stageFinished(let name):
            stage = nil
            entities = [:]
            return clear() + "\(name): done in \(ProgressText.duration(now - stageStarted))\n"
        case .note(let text):
            return clear() + text + "\n" + redraw(at: now)
        case .entityFetched(let name):
            let line = summary(name, entities[name] ?? EntityProgress(started: stageStarted), at: now)
            return clear() + line + redraw(at: now)
        case .mapped(let name, let records):
            update(name, at: now) { $0.records = records }
        case .nested(let name, let within, let records):
            update(within, at: now) { entity in
                if let index = entity.nested.firstIndex(where: { $0.entity == name }) {
                    entity.nested[index].records = records
                } else {
                    entity.nested.append((name, records))
                }
            }
        case .fetched(let name, let origin):
            update(name, at: now) { entity in
                entity.payloads += 1
                if entity.payloads == 1 { entity.origin = origin }
            }
        case .expected(let name, let amount, let unit):
            update(name, at: now) { $0.expected[unit, default: 0] += amount }
        case .advanced(let name, let amount, let unit):
            update(name, at: now) { $0.done[unit, default: 0] += amount }
        }
        guard let lastDraw, now - lastDraw < Self.interval else { return redraw(at: now) }
        return ""
    }

    /// The status line drawn again (time passes even when no event arrives); "" when none is shown.
    public mutating func redraw(at now: Duration) -> String {
        guard case .bar = style, stage != nil else { return "" }
        return draw(at: now)
    }

    /// Erases the status line, if one is shown, and draws it no more (before the results are printed).
    public mutating func finish() -> String {
        stage = nil
        return clear()
    }

    private mutating func clear() -> String {
        defer { lineShown = false }
        return lineShown ? Self.clearLine : ""
    }

    private mutating func update(_ name: String, at now: Duration, _ change: (inout EntityProgress) -> Void) {
        change(&entities[name, default: EntityProgress(started: now)])
    }

    // MARK: - Lines

    /// `fetched CRMPerson: 12 records from samples/people.json (5.2 KiB) in 0.01s, 1,200 records/s`;
    /// records of other entities nested in them follow the count: `15 records and 40 nested CRMTask from ...`.
    private func summary(_ name: String, _ entity: EntityProgress, at now: Duration) -> String {
        let elapsed = now - entity.started
        let source: String
        switch entity.payloads {
        case 0: source = ""
        case 1: source = " from \(entity.origin)"
        default:
            let noun = entity.done[.bytes] != nil ? "files" : entity.done[.pages] != nil ? "pages" : "payloads"
            source = " from \(entity.payloads) \(noun)"
        }
        let size = entity.done[.bytes].map { " (\(ProgressText.bytes($0)))" } ?? ""
        let rate = ProgressText.rate(entity.records, over: elapsed).map { ", \($0)" } ?? ""
        let nested = entity.nested.map { " and \(ProgressText.count($0.records)) nested \($0.entity)" }.joined()
        let records = ProgressText.count(entity.records) + (entity.records == 1 ? " record" : " records") + nested
        return "fetched \(name): \(records)\(source)\(size)"
            + " in \(ProgressText.duration(elapsed))\(rate)\n"
    }

    // MARK: - Status line

    private mutating func draw(at now: Duration) -> String {
        guard case .bar(let color) = style, let stage else { return "" }
        lineShown = true
        lastDraw = now
        return Self.clearLine + status(stage, color: color, elapsed: now - stageStarted)
    }

    private func status(_ stage: String, color: Bool, elapsed: Duration) -> String {
        let records = entities.values.reduce(0) { $0 + $1.records }
        let rate = records > 0 ? ProgressText.rate(records, over: elapsed) : nil
        guard let fraction else {
            var parts = records > 0 ? ["\(ProgressText.count(records)) records"] : []
            if let rate { parts.append(rate) }
            return stage + "  " + (parts + [ProgressText.duration(elapsed)]).joined(separator: ", ")
        }
        var parts: [String] = []
        if let amounts { parts.append(amounts) }
        if let rate { parts.append(rate) }
        if fraction > 0, fraction < 1 {
            parts.append("ETA " + ProgressText.estimate(elapsed * ((1 - fraction) / fraction)))
        }
        let percent = String(Int((fraction * 100).rounded(.down)))
        let padding = String(repeating: " ", count: 4 - percent.count)
        return "\(stage) \(Self.bar(fraction, color: color))\(padding)\(percent)%"
            + (parts.isEmpty ? "" : "  " + parts.joined(separator: ", "))
    }

    /// The share of the announced work done: the mean over units (bytes, pages), `nil` when none was announced.
    private var fraction: Double? {
        let shares = totals.map { unit, total in min(1, Double(done(unit)) / Double(total)) }
        return shares.isEmpty ? nil : shares.reduce(0, +) / Double(shares.count)
    }

    /// `1.2 MiB of 2.5 MiB` or `3 of 12 pages`, when the work is counted in one unit.
    private var amounts: String? {
        let totals = totals
        guard totals.count == 1, let total = totals.first else { return nil }
        switch total.key {
        case .bytes: return "\(ProgressText.bytes(done(.bytes))) of \(ProgressText.bytes(total.value))"
        case .pages: return "\(ProgressText.count(done(.pages))) of \(ProgressText.count(total.value)) pages"
        }
    }

    /// The work announced per unit, over every entity of the stage.
    private var totals: [ProgressUnit: Int] {
        entities.values.reduce(into: [:]) { totals, entity in totals.merge(entity.expected, uniquingKeysWith: +) }
            .filter { $0.value > 0 }
    }

    private func done(_ unit: ProgressUnit) -> Int {
        entities.values.reduce(0) { $0 + ($1.done[unit] ?? 0) }
    }

    /// `[=========>          ]`, the done part green when `color`.
    private static func bar(_ fraction: Double, color: Bool) -> String {
        let filled = Int((fraction * Double(barWidth)).rounded(.down))
        let head = filled < barWidth ? ">" : ""
        let done = String(repeating: "=", count: filled) + head
        let rest = String(repeating: " ", count: barWidth - done.count)
        return "[" + (color ? "\u{1B}[32m\(done)\u{1B}[0m" : done) + rest + "]"
    }
}

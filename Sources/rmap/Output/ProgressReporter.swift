import RMap
import Synchronization

/// Draws the pipeline's ``ProgressEvent``s on stderr: a status line redrawn in
/// place on a terminal, plain lines otherwise, nothing with `--quiet`.
///
/// Plain lines (what CI logs keep):
///
/// ```text
/// fetch: started
/// fetched CRMPerson from samples/people.json
/// fetched CRMProject from samples/projects.json
/// mapped CRMPerson: 12 records
/// mapped CRMProject: 15 records
/// fetch: done
/// ```
///
/// Record counts arrive often; plain output prints each entity's last count
/// once, when its stage finishes.
final class ProgressReporter: Sendable {
    /// How progress is shown.
    enum Style: Equatable {
        /// A status line redrawn in place.
        case statusLine
        /// One line per step.
        case lines
        /// Nothing.
        case silent

        /// The style for a stream: silent when quiet, a status line on a terminal, lines otherwise.
        init(quiet: Bool, terminal: Bool) {
            self = quiet ? .silent : terminal ? .statusLine : .lines
        }
    }

    private struct State {
        var stage = ""
        /// Each entity's latest record count in the current stage, in the order first seen.
        var counts: [(entity: String, records: Int)] = []
        var lineShown = false
        /// When the current stage started, for the records/s of the status line.
        var started = ContinuousClock.now
    }

    private let output: TextOutput
    private let style: Style
    private let state = Mutex(State())

    /// Creates a reporter writing to `output`.
    init(output: TextOutput, quiet: Bool) {
        self.output = output
        style = Style(quiet: quiet, terminal: output.isTerminal)
    }

    /// Shows one event.
    func report(_ event: ProgressEvent) {
        guard style != .silent else { return }
        let text = state.withLock { state in render(event, state: &state) }
        if !text.isEmpty { output.write(text) }
    }

    /// Clears a status line left on the terminal (before the results are printed).
    func finish() {
        let clear = state.withLock { state in
            defer { state.lineShown = false }
            return state.lineShown ? Self.clearLine : ""
        }
        if !clear.isEmpty { output.write(clear) }
    }

    private static let clearLine = "\r\u{1B}[K"

    private func render(_ event: ProgressEvent, state: inout State) -> String {
        switch event {
        case .stageStarted(let stage):
            state.stage = stage
            state.counts = []
            state.started = .now
            return style == .lines ? "\(stage): started\n" : status("\(stage)...", state: &state)
        case .fetched(let entity, let origin):
            return style == .lines
                ? "fetched \(entity) from \(origin)\n" : status("\(state.stage): \(entity) \(origin)", state: &state)
        case .mapped(let entity, let records):
            if let index = state.counts.firstIndex(where: { $0.entity == entity }) {
                state.counts[index].records = records
            } else {
                state.counts.append((entity, records))
            }
            guard style != .lines else { return "" }
            let total = state.counts.reduce(0) { $0 + $1.records }
            let elapsed = (ContinuousClock.now - state.started).components
            let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
            let rate = seconds > 0 ? " (\(Int(Double(total) / seconds)) records/s)" : ""
            return status("\(state.stage): \(entity) \(records) records\(rate)", state: &state)
        case .stageFinished(let stage):
            let counts = state.counts.map { "mapped \($0.entity): \($0.records) records\n" }.joined()
            state.counts = []
            if style == .lines { return counts + "\(stage): done\n" }
            state.lineShown = false
            return Self.clearLine + counts + "\(stage): done\n"
        case .note(let text):
            if style == .lines { return text + "\n" }
            let redraw = state.lineShown
            state.lineShown = false
            return (redraw ? Self.clearLine : "") + text + "\n"
        }
    }

    private func status(_ text: String, state: inout State) -> String {
        state.lineShown = true
        return Self.clearLine + text
    }
}

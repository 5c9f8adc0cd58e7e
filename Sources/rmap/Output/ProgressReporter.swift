import Foundation
import RMap

/// Shows the pipeline's ``ProgressEvent``s on stderr, as ``ProgressRenderer``
/// words them: lines in a log or pipe, a status line redrawn in place on a
/// terminal, nothing with `--quiet`.
///
/// The status line is drawn only when stderr is a terminal that can redraw a
/// line (`TERM` is not `dumb`) and the run's output is for a person (not
/// `--json`); its bar is green unless `NO_COLOR` is set. While it is shown, a
/// ticker redraws it every ``ProgressRenderer/interval`` so its time and ETA
/// move between events.
///
/// The renderer and the ticker are ``Locked``: rendering and writing one piece of
/// text hold the lock, which keeps lines whole and in order.
final class ProgressReporter: Sendable {
    /// What the reporter's callers share.
    private struct State {
        var renderer: ProgressRenderer
        var ticker: Task<Void, Never>?
    }

    private let output: TextOutput
    private let quiet: Bool
    private let started = ContinuousClock.now
    private let state: Locked<State>

    /// Creates a reporter writing to `output`.
    ///
    /// - Parameters:
    ///   - quiet: show nothing.
    ///   - redraw: whether a status line may be redrawn on a terminal (false with `--json`).
    ///   - environment: where `TERM` and `NO_COLOR` are read.
    init(
        output: TextOutput, quiet: Bool, redraw: Bool = true,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.output = output
        let style = Self.style(terminal: output.isTerminal && redraw, environment: environment)
        self.quiet = quiet
        state = Locked(State(renderer: ProgressRenderer(style: style)))
        if !quiet, case .bar = style { startTicker() }
    }

    /// The style for a stream: a bar on a terminal that can redraw (coloured unless `NO_COLOR`), lines otherwise.
    static func style(terminal: Bool, environment: [String: String]) -> ProgressRenderer.Style {
        guard terminal, environment["TERM"] != "dumb" else { return .lines }
        return .bar(color: (environment["NO_COLOR"] ?? "").isEmpty)
    }

    /// Shows one event.
    func report(_ event: ProgressEvent) {
        write { $0.apply(event, at: $1) }
    }

    /// Stops redrawing and clears a status line left on the terminal (before the results are printed).
    func finish() {
        state.withLock { state in
            state.ticker?.cancel()
            state.ticker = nil
        }
        write { renderer, _ in renderer.finish() }
    }

    private func write(_ render: (inout ProgressRenderer, Duration) -> String) {
        guard !quiet else { return }
        let now = ContinuousClock.now - started
        state.withLock { state in
            let text = render(&state.renderer, now)
            if !text.isEmpty { output.write(text) }
        }
    }

    private func startTicker() {
        let task = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: ProgressRenderer.interval)
                self?.write { renderer, now in renderer.redraw(at: now) }
            }
        }
        state.withLock { $0.ticker = task }
    }
}

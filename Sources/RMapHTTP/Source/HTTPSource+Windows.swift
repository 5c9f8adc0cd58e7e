import Foundation
import RMap

extension HTTPSource {
    /// Fetches an index window after window (``DateWindow``), from where its last completed
    /// window ended up to `end`, the run's start. The end of each window fetched is kept in the
    /// run state, written with the run's data; the entity counts as incomplete (objects outside
    /// the windows are not orphans).
    func walk(_ index: Index, in window: DateWindow, until end: Date, context: FetchContext) async throws {
        context.runState.markIncomplete(index.entity.name)
        let stored = try await context.runState.entries(scope: DateWindow.scope)[index.key]
        var lower = window.resume(stored)
        while let (from, to) = window.window(from: lower, until: end) {
            let request = window.request(from, to, base: index.url, body: index.body)
            var windowed = index
            windowed.url = request.url
            windowed.body = request.body
            try await walkPages(windowed, context: context)
            var update = RunStateUpdate()
            update.set(scope: DateWindow.scope, key: index.key, to: .string(DateWindow.text(to)))
            context.runState.record(update)
            lower = to
        }
    }
}

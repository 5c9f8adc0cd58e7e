import Foundation
import RMap

/// Walks one index of an ``HTTPSource``: fetches its pages one after another, or `concurrency`
/// at a time once the first tells how many (``PagePlan``), and with `window:` window after
/// window (``DateWindow``); ends it quietly where `on_status` or a `404` past the end says so.
struct IndexWalker: Sendable {
    /// Sends, reads and delivers each page.
    let fetcher: PageFetcher
    /// When the run started: where the last `window` ends.
    let started: Date

    private var settings: HTTPSourceSettings { fetcher.settings }
    private var client: HTTPClient { fetcher.client }

    /// Fetches every page of one index, delivering each.
    ///
    /// Each body streams to a temporary file: a top-level array is delivered as
    /// that file (the mapper streams it), any other body parsed whole. When the
    /// first page of `offset` or `page` paging tells the total, the other pages
    /// are fetched `concurrency` at a time (``PagePlan``).
    func walk(_ index: HTTPSource.Index, context: FetchContext) async throws {
        guard let window = settings.window else { return try await walkPages(index, context: context) }
        try await walk(index, in: window, until: started, context: context)
    }

    /// Fetches every page of one index (or of one window of it), delivering each.
    private func walkPages(_ index: HTTPSource.Index, context: FetchContext) async throws {
        var pager = Pager(settings: settings, base: index.url, body: index.body)
        var next: PageRequest? = pager.first
        var previous: SpoolFile?
        let entity = index.entity.name
        let remembered = settings.conditional ? try await context.runState.entries(scope: PageValidators.scope) : [:]
        while let request = next {
            let fetched: PageFetcher.FetchedPage
            do {
                fetched = try await fetcher.fetch(request, of: index, remembered: remembered, context: context)
            } catch {
                try ending(error, of: request, entity: entity, pastEnd: pager.endsAtNotFound, context: context)
                return
            }
            switch fetched {
            case .unchanged(let validators, let response, let identities):
                next = try await paging(request, entity) {
                    try await pager.next(
                        after: Pager.Page(
                            response: validators.completing(response), document: nil, repeated: false,
                            count: { identities.count }))
                }
                previous = nil
            case .page(let response, let document, let spool):
                if previous == nil,
                    let pages = PageTotal.pages(
                        in: response, document: document, style: settings.pagination, pageSize: settings.pageSize)
                {
                    context.progress(.expected(entity: entity, amount: pages, unit: .pages))
                }
                context.progress(.advanced(entity: entity, amount: 1, unit: .pages))
                var page = Pager.Page(
                    response: response, document: document,
                    repeated: await previous?.hasSameContents(as: spool) ?? false,
                    count: {
                        guard fetcher.jsonAPI == nil else { return JSONAPIPage.count(in: document) }
                        return try await PageRecords.count(document: document, spool: spool, for: index.entity)
                    },
                    lastValue: { try await lastValue(document: document, spool: spool, of: index.entity) })
                if pager.pages == 0, settings.pagination == .offset || settings.pagination == .page {
                    // Counted once: a top-level array is read from its file to count it.
                    let records = try await page.count()
                    page.count = { records }
                    if let plan = PagePlan(response, document: document, records: records, settings: settings) {
                        try await paging(request, entity) { try plan.check(settings) }
                        try await fetch(
                            plan, after: spool, pager: pager, index: index, remembered: remembered, context: context)
                        return
                    }
                }
                next = try await paging(request, entity) { try await pager.next(after: page) }
                previous = spool
            }
        }
    }

    /// Fetches the pages of `plan` after the first (in `first`), `concurrency` at a time.
    private func fetch(
        _ plan: PagePlan, after first: SpoolFile, pager: Pager, index: HTTPSource.Index,
        remembered: [String: RunStateEntry], context: FetchContext
    ) async throws {
        let entity = index.entity.name
        try await BoundedTasks.forEach(1..<plan.pages, limit: settings.concurrency) { number in
            let request = plan.request(number, pager: pager)
            let fetched: PageFetcher.FetchedPage
            do {
                fetched = try await fetcher.fetch(request, of: index, remembered: remembered, context: context)
            } catch {
                return try ending(error, of: request, entity: entity, pastEnd: true, context: context)
            }
            context.progress(.advanced(entity: entity, amount: 1, unit: .pages))
            if case .page(_, _, let spool) = fetched, await first.hasSameContents(as: spool) {
                try await paging(request, entity) {
                    throw plan.repeated(number, settings: settings)
                }
            }
        }
    }

    /// Ends an index quietly on an error answer that `on_status` skips (counted as skipped) or on a
    /// `404` past the end (`pastEnd`); throws the run's error otherwise.
    private func ending(
        _ error: any Error, of request: PageRequest, entity: String, pastEnd: Bool, context: FetchContext
    ) throws {
        guard let error = error as? HTTPError else { throw error }
        if error.status == 404, pastEnd { return }
        if let status = error.status, settings.statusActions[status] == .skip {
            context.skipped.record(entity: entity)
            context.progress(.note("\(error.request): skipped (on_status: {\(status): skip})"))
            return
        }
        throw FetchError(origin: error.request, message: "fetching \(entity): \(error.message)")
    }

    /// Runs the pager's `step`, its ``Pager/Failure`` failing the run as a fetch error of `request`.
    private func paging<T>(_ request: PageRequest, _ entity: String, _ step: () async throws -> T) async throws -> T {
        do {
            return try await step()
        } catch let error as Pager.Failure {
            throw FetchError(
                origin: "\(request.http.method.rawValue) \(client.redact(request.url))",
                message: "fetching \(entity): \(client.redactor.redact(error.message))")
        }
    }

    /// The `after_last` attribute's value in the page's last record.
    private func lastValue(document: JSONValue?, spool: SpoolFile, of entity: EntityMapping) async throws -> String? {
        guard case .cursor(let cursor) = settings.pagination, case .afterLast(let attribute) = cursor.origin,
            let keyPath = entity.attribute(named: attribute)?.keyPath
        else { return nil }
        let record =
            if let document { PageRecords.last(in: document, for: entity) } else { try await spool.lastElement() }
        return JSONKeyPath(segments: keyPath).text(in: record)
    }

    /// Fetches an index window after window (``DateWindow``), from where its last completed
    /// window ended up to `end`, the run's start. The end of each window fetched is kept in the
    /// run state, written with the run's data; the entity counts as incomplete (objects outside
    /// the windows are not orphans).
    private func walk(_ index: HTTPSource.Index, in window: DateWindow, until end: Date, context: FetchContext)
        async throws
    {
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

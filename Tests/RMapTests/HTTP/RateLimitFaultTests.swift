import Foundation
import RMap
import RMapSQLite
import Testing

extension FaultServerSuites {
    /// Budgets against the fault server: GitHub's and the IETF draft's rate-limit answers honoured
    /// without configuration, `max_wait`, and a configured `rate_limit` measured at the server.
    @Suite("Rate limits against the fault server")
    struct RateLimitFaultTests {
        /// A mapping whose items are the pages of `path` (3 a page, `X-Total-Count` 12).
        static func mapping(site: URL, path: String, source: String = "") -> String {
            """
            rmap: 1
            source:
              plugin: http
              site: \(site.absoluteString)
              paginate: page
              page_size: 3
              \(source)
            entities:
              Item:
                path: \(path)
                attributes: { id: int, name: string }
            """
        }

        @Test("GitHub's X-RateLimit-Remaining: 0 holds the next request until the reset, which is said in progress")
        func githubAhead() async throws {
            let site = try TestServers.fault()
            let tag = marker()
            let harness = try FetchHarness(
                Self.mapping(
                    site: site, path: "github/\(tag)",
                    source: "params: { limit: 2, reset: 2, total: 11 }\n  concurrency: 1"))
            try await harness.fetch(["Item"], realWait: .seconds(10))
            #expect(byID(harness.records("Item")).map { $0.object?["id"] } == (1...11).map { .number(String($0)) })
            // Two requests a window, one page after another: none was refused.
            #expect(try await Plain.requests(site, containing: tag).count == 4)
            #expect(harness.notes.contains { $0.contains("the server's rate limit (X-RateLimit-Reset): waiting") })
        }

        @Test(
            "a 403 with no request left (GitHub) and a 429 with RateLimit-Reset (IETF) are waited out, not failures",
            arguments: ["github", "ietf"])
        func refusedThenWaited(route: String) async throws {
            let site = try TestServers.fault()
            let tag = marker()
            // The first page, then the other three at once against two a window: two are refused
            // and sent again after the reset. The server holds each answer a second, so the three
            // reach it before the answer that says the window is spent reaches rmap (without the
            // hold, under a sanitizer on a loaded machine, rmap once had that answer before sending
            // the last two, and rightly waited instead of being refused).
            let harness = try FetchHarness(
                Self.mapping(
                    site: site, path: "\(route)/\(tag)",
                    source: "params: { limit: 2, reset: 3, hold: 1 }\n  retries: 2"))
            try await harness.fetch(["Item"], realWait: .seconds(10))
            #expect(byID(harness.records("Item")).count == 12)
            let requests = try await Plain.requests(site, containing: tag)
            #expect(requests.count > 4, "some requests were refused and sent again: \(requests.count)")
            let refused = route == "github" ? "HTTP 403" : "HTTP 429"
            #expect(harness.notes.contains { $0.contains(refused) && $0.contains("retry 1 of 2") }, "\(harness.notes)")
        }

        @Test("a wait longer than max_wait fails the run at once with what asked for it")
        func maxWait() async throws {
            let site = try TestServers.fault()
            let tag = marker()
            let harness = try FetchHarness(
                Self.mapping(
                    site: site, path: "github/\(tag)",
                    source: "params: { limit: 1, reset: 120 }\n  concurrency: 1\n  max_wait: 2s"))
            let started = ContinuousClock.now
            let error = try await #require(throws: FetchError.self) {
                try await harness.fetch(["Item"], realWait: .seconds(10))
            }
            #expect(ContinuousClock.now - started < .seconds(5))
            #expect(
                error.origin.hasPrefix(
                    "GET \(site.absoluteString)/github/\(tag).json?limit=1&reset=120&per_page=3&page=2"))
            #expect(
                error.message.hasPrefix(
                    "fetching Item: the server's rate limit (X-RateLimit-Reset) asks for a wait of "),
                "\(error.message)")
            #expect(
                error.message.hasSuffix("longer than max_wait (2 s); raise max_wait or try later"), "\(error.message)")
        }

        @Test("a rate_limit of 5 a second, shared by two sources of the same site, holds at the server")
        func configuredBudget() async throws {
            let site = try TestServers.fault()
            let tag = marker()
            let directory = try TemporaryDirectory()
            let source =
                "{ plugin: http, site: \"\(site.absoluteString)\", paginate: page, page_size: 3, rate_limit: { requests: 5, per: 1s } }"
            try """
            rmap: 1
            entities:
              Item:
                source: \(source)
                path: paced/\(tag)/items
                attributes: { id: int, name: string }
              Thing:
                source: \(source.replacingOccurrences(of: "page_size: 3", with: "page_size: 3, concurrency: 2, params: { total: 30 }"))
                path: paced/\(tag)/things
                attributes: { id: int, name: string }
            """.write(to: directory.url.appendingPathComponent("paced.yml"), atomically: true, encoding: .utf8)
            let result = try await CLIRunner.run(
                ["run", "paced.yml", "--store", "paced.sqlite", "--json"], in: directory.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try DjangoServerSuites.DjangoExampleTests.totals(result)["inserted"] == 42)
            let arrivals = try await Plain.json(URL(string: "\(site.absoluteString)/_arrivals?tag=\(tag)")!)
            let times = (arrivals.array ?? []).compactMap { value -> Double? in
                if case .number(let digits) = value { return Double(digits) }
                return nil
            }
            #expect(times.count == 14)
            let check = BudgetCheck(times: times, requests: 5, per: 1)
            // A little slack for the network between rmap's start of a request and the server's reading of it.
            #expect(check.mostInAnyWindow(of: 0.95) <= 5, "\(times)")
            // 14 requests at 5 a second: the last starts 2 s after the first, and not much later.
            #expect(check.span >= check.required - 0.05, "\(check.span)")
            #expect(check.span <= check.required * 1.25 + 0.25, "\(check.span)")
        }
    }
}

extension FaultServerSuites.RateLimitFaultTests {
    @Test("rmap push keeps the source's rate_limit too")
    func pushBudget() async throws {
        let site = try TestServers.fault()
        let tag = marker()
        let directory = try TemporaryDirectory()
        try """
        rmap: 1
        source: { plugin: http, site: "\(site.absoluteString)", paginate: page, page_size: 3, rate_limit: { requests: 2, per: 1s } }
        entities:
          Item:
            path: paced/\(tag)/items
            attributes: { id: int, name: string }
        """.write(to: directory.url.appendingPathComponent("items.yml"), atomically: true, encoding: .utf8)
        let run = try await CLIRunner.run(["run", "items.yml", "--store", "items.sqlite"], in: directory.url)
        #expect(run.status == 0, "\(run.stderr)")
        try SQLiteConnection(path: directory.url.appendingPathComponent("items.sqlite").path)
            .execute("UPDATE items SET name = name || ' (edited)' WHERE id <= 6")
        let arrivals = try await Plain.json(URL(string: "\(site.absoluteString)/_arrivals?tag=\(tag)")!)
        let fetched = arrivals.array?.count ?? 0
        let push = try await CLIRunner.run(
            ["push", "items.yml", "--store", "items.sqlite", "--jobs", "6"], in: directory.url)
        #expect(push.status == 0, "\(push.stderr)")
        #expect(push.stderr.contains("push: 6 sent, 6 acknowledged, 0 pending"), "\(push.stderr)")
        let all = try await Plain.json(URL(string: "\(site.absoluteString)/_arrivals?tag=\(tag)")!)
        let times = (all.array ?? []).dropFirst(fetched).compactMap { value -> Double? in
            if case .number(let digits) = value { return Double(digits) }
            return nil
        }
        // Six PUTs, six at once allowed by --jobs, two a second by the budget: the last 2 s after the first.
        let check = BudgetCheck(times: times, requests: 2, per: 1)
        #expect(times.count == 6 && check.mostInAnyWindow(of: 0.95) <= 2, "\(times)")
        #expect(check.span >= check.required - 0.05, "\(check.span)")
    }
}

/// Arrival times (seconds) checked against a budget of `requests` per `per` seconds.
struct BudgetCheck {
    var times: [Double]
    var requests: Int
    var per: Double

    /// The most arrivals in any interval of `length` seconds.
    func mostInAnyWindow(of length: Double) -> Int {
        let sorted = times.sorted()
        var most = 0
        var start = 0
        for (end, time) in sorted.enumerated() {
            while time - sorted[start] >= length { start += 1 }
            most = max(most, end - start + 1)
        }
        return most
    }

    /// From the first arrival to the last.
    var span: Double { (times.max() ?? 0) - (times.min() ?? 0) }

    /// The least span the budget allows for these arrivals: the last batch starts `per` after the one before.
    var required: Double { Double((times.count - 1) / requests) * per }
}

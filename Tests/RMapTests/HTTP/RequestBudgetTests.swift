import Foundation
import Testing

@testable import RMapHTTP

/// The request budget reserves starts in order: never more than the configured requests in
/// one interval, and none before a wait a server announced is over.
@Suite("Request budget")
struct RequestBudgetTests {
    /// The waits of `count` reservations made one after another, in milliseconds (rounded to 10;
    /// they are made microseconds apart).
    static func waits(_ budget: RequestBudget, count: Int) throws -> [Int] {
        try (0..<count).map { _ in
            let wait = try budget.reserve(maxWait: .seconds(60))?.wait ?? .zero
            let milliseconds = Double(wait.components.attoseconds) / 1e15 + Double(wait.components.seconds) * 1000
            return Int((milliseconds / 10).rounded()) * 10
        }
    }

    @Test(
        "a budget of 3 per 10 s: three starts now, three after 10 s, the seventh after 20 s (10 ms apart, 10 ms late)")
    func configured() throws {
        let budget = RequestBudget(limit: RateLimit(requests: 3, per: .seconds(10)))
        #expect(try Self.waits(budget, count: 7) == [0, 10, 20, 10_010, 10_020, 10_030, 20_020])
    }

    @Test("starts are per/requests apart when that is less than 10 ms: 1000 a second, 1 ms apart")
    func spacing() throws {
        // Each wait is from the moment of its call, which a slow run (a sanitizer) makes later: the
        // clock around each call brackets when the third start falls after the first. Three calls
        // that took a millisecond or more (a thread put aside) are measured again with a new budget.
        for _ in 0..<5 {
            let budget = RequestBudget(limit: RateLimit(requests: 1000, per: .seconds(1)))
            var waits: [Duration] = []
            var calls: [(before: ContinuousClock.Instant, after: ContinuousClock.Instant)] = []
            for _ in 0..<3 {
                let before = ContinuousClock.now
                waits.append(try budget.reserve(maxWait: .seconds(60))?.wait ?? .zero)
                calls.append((before, ContinuousClock.now))
            }
            guard calls[2].after - calls[0].before < .milliseconds(1) else { continue }
            #expect(waits[0] == .zero)
            let earliest = calls[2].before + waits[2] - calls[0].after
            let latest = calls[2].after + waits[2] - calls[0].before
            #expect(earliest <= .milliseconds(2) && latest >= .milliseconds(2), "\(waits), \(calls)")
            return
        }
        Issue.record("five tries of three reservations each took a millisecond or more")
    }

    @Test("a start later than max_wait reserves nothing and says what asked for the wait")
    func tooLong() throws {
        let budget = RequestBudget(limit: RateLimit(requests: 1, per: .seconds(30)))
        #expect(try budget.reserve(maxWait: .seconds(1)) == nil)
        let error = try #require(throws: RequestBudget.TooLong.self) { try budget.reserve(maxWait: .seconds(1)) }
        #expect(error.reason == "rate_limit (1 request per 30 s)")
        #expect(error.wait > .seconds(29) && error.wait <= .milliseconds(30_010))
        // Nothing was reserved: a longer max_wait gets the same start, not one after it.
        let again = try #require(try budget.reserve(maxWait: .seconds(60)))
        #expect(again.wait <= .milliseconds(30_010))
    }

    @Test("an announced wait holds every later start back, but a retry that waited it out")
    func announced() throws {
        let budget = RequestBudget()
        let response = HTTPResponse(
            status: 200, headers: HTTPHeaders(["RateLimit-Remaining": "0", "RateLimit-Reset": "5"]),
            url: URL(string: "https://api.test/x")!)
        budget.observe(try #require(AnnouncedLimit(response, now: Date())))
        #expect(try budget.reserve(maxWait: .seconds(60), ignoringAnnounced: true) == nil)
        let held = try #require(try budget.reserve(maxWait: .seconds(60)))
        #expect(held.reason == "the server's rate limit (RateLimit-Reset)")
        #expect(held.wait > .milliseconds(4900) && held.wait <= .seconds(5))
        #expect(throws: RequestBudget.TooLong.self) { try budget.reserve(maxWait: .seconds(1)) }
    }
}

/// What answers announce of a server's budget, read without configuration.
@Suite("Announced rate limits")
struct AnnouncedLimitTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    static func response(_ status: Int, _ headers: [String: String]) -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders(headers), url: URL(string: "https://api.test/x")!)
    }

    @Test(
        "the headers of GitHub, of the IETF draft and Retry-After give the wait they ask for",
        arguments: [
            (200, ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1700000042"], 42.0, "X-RateLimit-Reset"),
            (403, ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1700000007"], 7, "X-RateLimit-Reset"),
            (200, ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "30"], 30, "X-RateLimit-Reset"),
            (200, ["RateLimit-Remaining": "0", "RateLimit-Reset": "12"], 12, "RateLimit-Reset"),
            (429, ["Retry-After": "3"], 3, "Retry-After"),
            (503, ["Retry-After": "Tue, 14 Nov 2023 22:13:27 GMT"], 7, "Retry-After"),
            (429, ["Retry-After": "2", "RateLimit-Remaining": "0", "RateLimit-Reset": "9"], 9, "RateLimit-Reset"),
            (200, ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1699999000"], 0, "X-RateLimit-Reset"),
        ])
    func waits(status: Int, headers: [String: String], seconds: Double, header: String) throws {
        let limit = try #require(AnnouncedLimit(Self.response(status, headers), now: Self.now))
        #expect(limit.wait == .milliseconds(Int64(seconds * 1000)))
        #expect(limit.header == header)
    }

    @Test(
        "a budget with requests left, or a Retry-After on a success, asks for no wait",
        arguments: [
            (200, ["X-RateLimit-Remaining": "1", "X-RateLimit-Reset": "1700000042"]),
            (200, ["RateLimit-Remaining": "0"]),
            (200, ["Retry-After": "5"]),
            (500, [:]),
        ])
    func noWait(status: Int, headers: [String: String]) {
        #expect(AnnouncedLimit(Self.response(status, headers), now: Self.now) == nil)
    }

    @Test("a 429, or a 403 with no request left, is a rate limit; another 403 is not")
    func rateLimits() {
        #expect(AnnouncedLimit.isRateLimit(Self.response(429, [:])))
        #expect(AnnouncedLimit.isRateLimit(Self.response(403, ["X-RateLimit-Remaining": "0"])))
        #expect(AnnouncedLimit.isRateLimit(Self.response(403, ["RateLimit-Remaining": "0"])))
        #expect(!AnnouncedLimit.isRateLimit(Self.response(403, ["X-RateLimit-Remaining": "12"])))
        #expect(!AnnouncedLimit.isRateLimit(Self.response(403, [:])))
    }
}

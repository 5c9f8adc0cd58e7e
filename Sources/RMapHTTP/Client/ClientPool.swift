import Foundation
import RMap

/// What the HTTP clients of one registry (so of one run, or one push) share: a
/// ``RequestBudget`` per API origin and configured limit, so that every request to the API
/// counts against one budget however many sources send them; an ``OAuth2Session`` per grant, so
/// that they share one token; and the run's recording, if any.
///
/// ```swift
/// let pool = ClientPool(exchanges: nil)
/// let budget = pool.budget(for: site, limit: RateLimit(requests: 10, per: .seconds(1)))
/// ```
final class ClientPool: Sendable {
    private struct BudgetKey: Hashable {
        var origin: Origin
        var limit: RateLimit?
    }

    /// Where exchanges are recorded or replayed from.
    let exchanges: ExchangeLog?
    private let budgets = Locked<[BudgetKey: RequestBudget]>([:])
    private let sessions = Locked<[OAuth2Grant: OAuth2Session]>([:])

    /// A pool whose clients record to, or replay from, `exchanges`.
    init(exchanges: ExchangeLog? = nil) {
        self.exchanges = exchanges
    }

    /// The budget of requests to `site`'s origin under `limit`.
    func budget(for site: URL, limit: RateLimit?) -> RequestBudget {
        let key = BudgetKey(origin: Origin(site), limit: limit)
        return budgets.withLock { budgets in
            if let budget = budgets[key] { return budget }
            let budget = RequestBudget(limit: limit)
            budgets[key] = budget
            return budget
        }
    }

    /// The session of `grant`; `client` (without auth) sends its token requests.
    func session(for grant: OAuth2Grant, client: HTTPClient) -> OAuth2Session {
        sessions.withLock { sessions in
            if let session = sessions[grant] { return session }
            let session = OAuth2Session(grant: grant, client: client)
            sessions[grant] = session
            return session
        }
    }
}

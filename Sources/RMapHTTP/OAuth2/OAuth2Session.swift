import Foundation
public import RMap

/// The OAuth2 access token of one client, shared by every request that uses it.
///
/// The first request fetches a token (RFC 6749 §4.4 or §6) and the others wait for that one
/// fetch; a token is renewed when less than min(60 s, a tenth of its lifetime) remains, and
/// when a request is answered `401` with it (``renew(replacing:)``). Tokens, and a refresh
/// token the server rotates, live in this object only: each is added to ``secrets`` as it is
/// issued, so that no output shows it, and nothing writes it anywhere.
///
/// ```swift
/// let session = OAuth2Session(grant: grant, client: HTTPClient(transport: CurlTransport()))
/// let client = HTTPClient(auth: .oauth2(session))   // each request: Authorization: Bearer <token>
/// ```
public actor OAuth2Session {
    /// A token and when to renew it (`nil`: only after a `401`).
    private struct Issued {
        var token: String
        var renewAt: ContinuousClock.Instant?
    }

    /// How the tokens are obtained.
    public nonisolated let grant: OAuth2Grant
    /// The tokens issued so far: redactors watching it hide them.
    public nonisolated let secrets = LiveSecrets()
    private let client: HTTPClient
    private var issued: Issued?
    private var fetching: Task<Issued, any Error>?
    private var refreshToken: String?

    /// Creates a session whose token requests go with `client`'s timeout, retries, budget,
    /// secrets and recording (not its headers or credentials: the token endpoint gets the
    /// client's own).
    public init(grant: OAuth2Grant, client: HTTPClient) {
        self.grant = grant
        if case .refreshToken(let token) = grant.kind { refreshToken = token }
        var tokens = HTTPClient(
            timeout: client.timeout, retry: client.retry,
            redactor: client.redactor.adding(grant.secrets).watching(secrets), transport: client.transport,
            scope: CredentialScope(site: grant.tokenURL), maxBodyBytes: 1 << 20, budget: client.budget,
            maxWait: client.maxWait, exchanges: client.exchanges)
        // The tokens an answer carries are secrets before anything records or shows it.
        tokens.inspectAnswer = { [secrets] response in
            for token in TokenAnswer.tokens(in: response.body) { secrets.insert(token) }
        }
        self.client = tokens
    }

    /// A token that is good for a while yet, fetched when there is none.
    ///
    /// - Parameter note: told when the server rotates the refresh token.
    /// - Throws: ``HTTPError`` when the token endpoint refuses or answers what is not a token.
    func token(note: @escaping @Sendable (String) -> Void) async throws(HTTPError) -> String {
        if let issued, issued.renewAt.map({ ContinuousClock.now < $0 }) ?? true { return issued.token }
        let task = fetching ?? Task { try await self.fetch(note: note) }
        fetching = task
        defer { if fetching == task { fetching = nil } }
        do {
            let fresh = try await task.value
            issued = fresh
            return fresh.token
        } catch let error as HTTPError {
            throw error
        } catch {
            throw HTTPError(method: .post, url: client.redact(grant.tokenURL), reason: .cancelled)
        }
    }

    /// Forgets `token` after the server refused it (a `401`), so the next request fetches
    /// another; a token renewed meanwhile by another request is kept.
    func renew(replacing token: String) {
        if issued?.token == token { issued = nil }
    }

    /// Asks the token endpoint for a token.
    private func fetch(note: @escaping @Sendable (String) -> Void) async throws(HTTPError) -> Issued {
        let request = grant.request(refreshToken: refreshToken)
        let started = ContinuousClock.now
        let response = try await client.send(request, onRetry: note)
        let answer = try TokenAnswer(client.json(response, for: request), request: request, client: client)
        secrets.insert(answer.accessToken)
        if let rotated = answer.refreshToken, rotated != refreshToken, refreshToken != nil {
            secrets.insert(rotated)
            refreshToken = rotated
            note(
                "oauth2: \(client.redact(grant.tokenURL)) rotated the refresh token; the new one is kept in memory"
                    + " for this run only, so the configured refresh_token may no longer be valid")
        }
        let renewAt = answer.lifetime.map { lifetime in
            started + lifetime - min(.seconds(60), lifetime / 10)
        }
        return Issued(token: answer.accessToken, renewAt: renewAt)
    }
}

extension OAuth2Session: Hashable {
    public static func == (lhs: OAuth2Session, rhs: OAuth2Session) -> Bool { lhs === rhs }
    public nonisolated func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

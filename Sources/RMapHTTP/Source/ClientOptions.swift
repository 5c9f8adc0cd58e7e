import Foundation
import RMap

/// The options every source over HTTP reads the same way (`http`, `graphql`), and the client
/// they make.
protocol ClientOptions {
    /// Where requests go: the `site` or the `endpoint`.
    var origin: URL { get }
    var headers: HTTPHeaders { get }
    /// Fixed credentials.
    var auth: HTTPAuth? { get }
    /// `auth: {oauth2: ...}`.
    var oauth2: OAuth2Grant? { get }
    var timeout: Duration { get }
    var retries: Int { get }
    var maxBodyBytes: Int { get }
    var pacing: Pacing { get }
    /// Who receives the credentials.
    var scope: CredentialScope { get }
    /// The values no message may show.
    var secrets: [String] { get }
}

extension ClientOptions {
    /// The credentials' values: of the auth, and of headers named like credentials.
    var credentialSecrets: [String] {
        headers.filter { HTTPHeaders.isSensitive($0.name) }.map(\.value) + (auth?.secrets ?? [])
            + (oauth2?.secrets ?? [])
    }

    /// The client of these options, pacing and tokens shared through `pool`.
    ///
    /// - Parameters:
    ///   - transport: the network (replaced by the recording when `pool` replays one).
    ///   - tuning: adjusts the retry policy (tests shorten or record the waits).
    func client(
        model: MappingModel, pool: ClientPool, transport: any HTTPTransport, tuning: (inout RetryPolicy) -> Void
    ) -> HTTPClient {
        var retry = RetryPolicy(retries: retries)
        tuning(&retry)
        let budget = pool.budget(for: origin, limit: pacing.rateLimit)
        let redactor = Redactor(secrets: model.secrets.union(secrets))
        func make(_ auth: HTTPAuth?) -> HTTPClient {
            HTTPClient(
                headers: headers, auth: auth, timeout: timeout, retry: retry, redactor: redactor, transport: transport,
                scope: scope, maxBodyBytes: maxBodyBytes, budget: budget, maxWait: pacing.maxWait,
                exchanges: pool.exchanges)
        }
        let plain = make(auth)
        guard let oauth2 else { return plain }
        return make(.oauth2(pool.session(for: oauth2, client: plain)))
    }
}

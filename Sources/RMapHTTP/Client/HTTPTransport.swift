import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What sends one request and returns its answer, whatever the status: the
/// client's seam to the network.
///
/// Implementers throw ``HTTPError/Reason`` values (`timeout`,
/// `cannotConnect`, `connectionLost`, `cancelled`, `tooLarge`) when no
/// whole answer arrives, and never follow redirects themselves: the client
/// does, deciding each hop's credentials.
public protocol HTTPTransport: Sendable {
    /// Sends `request` once, giving up after `timeout`, and keeps the body in memory.
    func send(_ request: HTTPRequest, timeout: Duration) async throws(HTTPError.Reason) -> HTTPResponse

    /// Sends `request` once, giving up after `timeout`, with the body where `body` says.
    ///
    /// The default implementation sends with ``send(_:timeout:)``, then checks
    /// the limit and writes the body to the file: enough for test doubles.
    func send(_ request: HTTPRequest, timeout: Duration, body: BodyDestination) async throws(HTTPError.Reason)
        -> HTTPResponse
}

extension HTTPTransport {
    public func send(_ request: HTTPRequest, timeout: Duration, body: BodyDestination) async throws(HTTPError.Reason)
        -> HTTPResponse
    {
        var response = try await send(request, timeout: timeout)
        guard response.body.count <= body.limit else { throw .tooLarge(limit: body.limit) }
        if let file = body.file, response.isSuccess {
            do {
                try response.body.write(to: file)
            } catch {
                throw .spool("\(error.localizedDescription)")
            }
            response.body = Data()
        }
        return response
    }
}

extension HTTPError.Reason: Error {}

/// The transport over Foundation's `URLSession` (FoundationNetworking on Linux).
///
/// Cookies, caches and credentials stores are off, and redirects are not
/// followed: every request carries exactly what the client put in it. Bodies
/// go to their ``BodyDestination`` as they arrive, but FoundationNetworking
/// reads (and inflates) ahead of its delegate, so memory is not bounded by
/// the limit: for large or untrusted answers use ``CurlTransport``.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let transfers = TransferDelegate()

    /// Creates a transport with its own ephemeral session.
    ///
    /// - Parameter maximumConnections: connections kept open per host.
    public init(maximumConnections: Int = 8) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.urlCredentialStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpMaximumConnectionsPerHost = maximumConnections
        session = URLSession(configuration: configuration, delegate: transfers, delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    public func send(_ request: HTTPRequest, timeout: Duration) async throws(HTTPError.Reason) -> HTTPResponse {
        try await send(request, timeout: timeout, body: BodyDestination(limit: .max))
    }

    public func send(_ request: HTTPRequest, timeout: Duration, body: BodyDestination) async throws(HTTPError.Reason)
        -> HTTPResponse
    {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let task = session.dataTask(with: Self.urlRequest(request, seconds: seconds))
        let transfers = transfers
        let outcome = await withTaskGroup(of: Result<HTTPResponse, HTTPError.Reason>?.self) { group in
            group.addTask { await transfers.run(task, request: request, body: body) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let outcome else { throw Task.isCancelled ? .cancelled : .timeout }
        return try outcome.get()
    }

    private static func urlRequest(_ request: HTTPRequest, seconds: Double) -> URLRequest {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        // FoundationNetworking truncates the interval to whole seconds (0.3 s would time out at once),
        // so the session gets a looser limit and the exact one is enforced by the caller.
        urlRequest.timeoutInterval = seconds.rounded(.up) + 1
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        urlRequest.httpBody = request.body
        return urlRequest
    }
}

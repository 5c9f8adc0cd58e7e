import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What sends one request and returns its answer, whatever the status: the
/// client's seam to the network.
///
/// Implementers throw ``HTTPError/Reason`` values (`timeout`,
/// `cannotConnect`, `connectionLost`, `cancelled`) when no answer arrives.
public protocol HTTPTransport: Sendable {
    /// Sends `request` once, giving up after `timeout`.
    func send(_ request: HTTPRequest, timeout: Duration) async throws(HTTPError.Reason) -> HTTPResponse
}

extension HTTPError.Reason: Error {}

/// The transport over Foundation's `URLSession` (FoundationNetworking on Linux).
///
/// Cookies, caches and credentials stores are off: every request carries
/// exactly what the client put in it.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession

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
        session = URLSession(configuration: configuration)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    public func send(_ request: HTTPRequest, timeout: Duration) async throws(HTTPError.Reason) -> HTTPResponse {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let session = session
        let outcome = await withTaskGroup(of: Result<(Data, URLResponse), any Error>?.self) { group in
            group.addTask {
                do {
                    return .success(try await session.data(for: Self.urlRequest(request, seconds: seconds)))
                } catch {
                    return .failure(error)
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let outcome else { throw Task.isCancelled ? .cancelled : .timeout }
        let data: Data
        let response: URLResponse
        switch outcome {
        case .success(let answer): (data, response) = answer
        case .failure(let error): throw Self.reason(for: error)
        }
        guard let http = response as? HTTPURLResponse else {
            throw .connectionLost("not an HTTP response")
        }
        let headers = http.allHeaderFields.compactMap { name, value -> (name: String, value: String)? in
            guard let name = name as? String, let value = value as? String else { return nil }
            return (name, value)
        }
        return HTTPResponse(
            status: http.statusCode, headers: HTTPHeaders(headers.sorted { $0.name < $1.name }), body: data,
            url: http.url ?? request.url)
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

    /// Sorts a `URLSession` failure into the client's reasons.
    private static func reason(for error: any Error) -> HTTPError.Reason {
        if error is CancellationError { return .cancelled }
        guard let urlError = error as? URLError else { return .connectionLost(error.localizedDescription) }
        switch urlError.code {
        case .timedOut:
            return .timeout
        case .cancelled:
            return .cancelled
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
            return .cannotConnect(urlError.localizedDescription)
        default:
            return .connectionLost(urlError.localizedDescription)
        }
    }
}

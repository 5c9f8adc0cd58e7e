import Foundation

/// The transport over libcurl, for bodies that must stay bounded in memory.
///
/// Each request runs `curl_easy_perform` on a thread of its own (never a
/// cooperative one); the body is written to its ``BodyDestination`` inside
/// libcurl's write callback, so a server sending faster than the disk takes
/// it is simply read more slowly, and the limit stops the transfer at once.
/// Compressed answers (`gzip`, `deflate`, `br`) are inflated by libcurl in
/// pieces of 16 KiB and counted after inflating, so a gzip bomb stops at the
/// limit too. Redirects are never followed (the client follows them), and no
/// cookies or stored credentials are sent. `URLSession` on Linux can do
/// neither: it inflates and queues a whole body ahead of its delegate.
///
/// Made with `reusingConnections: true`, it keeps each finished request's
/// handle, and so its connection (HTTP keep-alive), for the next one: at most
/// as many connections as requests were ever in flight at once (what `rmap
/// push` uses). Otherwise every request has a connection of its own.
///
/// ```swift
/// let client = HTTPClient(transport: CurlTransport(), maxBodyBytes: 64 << 20)
/// ```
public struct CurlTransport: HTTPTransport {
    private let handles: CurlHandles?

    /// Creates a transport.
    ///
    /// - Parameter reusingConnections: keep connections open between requests (default: a new one each).
    public init(reusingConnections: Bool = false) {
        handles = reusingConnections ? CurlHandles() : nil
    }

    public func send(_ request: HTTPRequest, timeout: Duration) async throws(HTTPError.Reason) -> HTTPResponse {
        try await send(request, timeout: timeout, body: BodyDestination(limit: .max))
    }

    public func send(_ request: HTTPRequest, timeout: Duration, body: BodyDestination) async throws(HTTPError.Reason)
        -> HTTPResponse
    {
        let transfer = CurlTransfer(request: request, timeout: timeout, destination: body, handles: handles)
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread { continuation.resume(returning: transfer.perform()) }
                thread.name = "rmap-http"
                thread.start()
            }
        } onCancel: {
            transfer.cancel()
        }
        return try outcome.get()
    }
}

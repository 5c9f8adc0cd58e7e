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
/// ```swift
/// let client = HTTPClient(transport: CurlTransport(), maxBodyBytes: 64 << 20)
/// ```
public struct CurlTransport: HTTPTransport {
    /// Creates a transport.
    public init() {}

    public func send(_ request: HTTPRequest, timeout: Duration) async throws(HTTPError.Reason) -> HTTPResponse {
        try await send(request, timeout: timeout, body: BodyDestination(limit: .max))
    }

    public func send(_ request: HTTPRequest, timeout: Duration, body: BodyDestination) async throws(HTTPError.Reason)
        -> HTTPResponse
    {
        let transfer = CurlTransfer(request: request, timeout: timeout, destination: body)
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

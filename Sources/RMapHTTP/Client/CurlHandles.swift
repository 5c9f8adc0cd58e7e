internal import CCurl
import RMap

/// Idle libcurl easy handles kept for the next request: each keeps its
/// connection open (HTTP keep-alive), so a ``CurlTransport`` made with
/// `reusingConnections: true` opens at most as many connections as it ever
/// had requests in flight at once.
///
/// A handle is reset (`curl_easy_reset`, which keeps its live connections)
/// when it comes back, so nothing of one request's options reaches the next.
final class CurlHandles: Sendable {
    /// A libcurl easy handle, a C pointer: `@unchecked` because one transfer at a time uses it
    /// (it is in `idle`, under the lock, or lent to that transfer).
    private struct Handle: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
    }

    private let idle = Locked<[Handle]>([])

    deinit {
        for handle in idle.withLock({ $0 }) { curl_easy_cleanup(handle.pointer) }
    }

    /// An idle handle, or a new one (`nil` when libcurl cannot make one).
    func take() -> UnsafeMutableRawPointer? {
        idle.withLock { $0.popLast() }?.pointer ?? curl_easy_init()
    }

    /// Takes a handle back for the next request, its options reset and its connections kept.
    func recycle(_ handle: UnsafeMutableRawPointer) {
        curl_easy_reset(handle)
        idle.withLock { $0.append(Handle(pointer: handle)) }
    }
}

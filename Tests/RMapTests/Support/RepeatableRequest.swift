import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Requests a test sends to its own test servers that may be sent again: reads (`GET`) and test
/// controls that set a state (`POST /_reset`, `/_oauth?...`). Under the sanitizers' loaded runs a
/// test server now and then drops a connection without an answer ("Empty reply from server");
/// such a request is sent again, up to three times in all, before the test fails. Requests whose
/// repetition would change what a test checks (a create, a bulk insert) do not come here.
enum RepeatableRequest {
    /// The answer to `request`, sent again after a dropped connection or a timeout.
    static func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        var attempt = 1
        while true {
            do {
                return try await URLSession.shared.data(for: request)
            } catch let error as URLError where attempt < 3 && dropped.contains(error.code) {
                attempt += 1
                try await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// `GET url`, sent again after a dropped connection or a timeout.
    static func data(from url: URL) async throws -> (Data, URLResponse) {
        try await data(for: URLRequest(url: url))
    }

    /// A connection that ended without an answer (`-1011` is curl's "Empty reply from server").
    private static let dropped: Set<URLError.Code> = [.badServerResponse, .networkConnectionLost, .timedOut]
}

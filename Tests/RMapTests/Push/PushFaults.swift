import Foundation
import RMap
import RMapHTTP
import RMapSQLite

/// Sends requests for real, with one fault a real server cannot be asked for injected into
/// the counted requests that `isFaulty` picks by their 1-based count.
final class FaultyTransport: HTTPTransport {
    private enum Fault { case cancelled, answerLost }

    private let fault: Fault
    private let counts: @Sendable (HTTPRequest) -> Bool
    private let isFaulty: @Sendable (Int) -> Bool
    private let count = Locked(0)
    private let real = URLSessionTransport()

    private init(
        _ fault: Fault, counts: @escaping @Sendable (HTTPRequest) -> Bool,
        isFaulty: @escaping @Sendable (Int) -> Bool
    ) {
        self.fault = fault
        self.counts = counts
        self.isFaulty = isFaulty
    }

    /// The first `limit` requests go for real; every later one is cancelled before it reaches
    /// the server, as when a push is interrupted.
    static func cancelling(after limit: Int) -> FaultyTransport {
        FaultyTransport(.cancelled, counts: { _ in true }, isFaulty: { $0 > limit })
    }

    /// The answers of the first `limit` `POST`s are lost on the way back: the server created the
    /// object, the client saw a broken connection.
    static func losingAnswers(ofFirstPOSTs limit: Int) -> FaultyTransport {
        FaultyTransport(.answerLost, counts: { $0.method == .post }, isFaulty: { $0 <= limit })
    }

    func send(_ request: HTTPRequest, timeout: Duration) async throws(HTTPError.Reason) -> HTTPResponse {
        let faulty =
            counts(request)
            && count.withLock { count in
                count += 1
                return isFaulty(count)
            }
        if faulty, fault == .cancelled { throw .cancelled }
        let response = try await real.send(request, timeout: timeout)
        if faulty { throw .connectionLost("the answer was lost (fault injection)") }
        return response
    }
}

/// Sends every request for real, then, before handing the answer back, takes the SQLite
/// file's write lock on a connection of its own (`BEGIN IMMEDIATE`) and holds it until
/// ``release()``: another process busy with the store while the push records the answer.
final class LockingTransport: HTTPTransport {
    private let path: String
    private let holder = Locked<SQLiteConnection?>(nil)
    private let real = URLSessionTransport()

    init(path: String) {
        self.path = path
    }

    func send(_ request: HTTPRequest, timeout: Duration) async throws(HTTPError.Reason) -> HTTPResponse {
        let response = try await real.send(request, timeout: timeout)
        holder.withLock { holder in
            guard holder == nil, let connection = try? SQLiteConnection(path: path) else { return }
            try? connection.execute("BEGIN IMMEDIATE")
            holder = connection
        }
        return response
    }

    /// Ends the held transaction.
    func release() {
        holder.withLock { holder in
            try? holder?.execute("ROLLBACK")
            holder = nil
        }
    }
}

/// Sends every request for real; when the first `POST`'s answer arrives, runs `meanwhile` (e.g.
/// `rmap run` on the store) before handing the answer back: another of rmap's operations while
/// the push waits for answers.
final class InterleavingTransport: HTTPTransport {
    private let meanwhile: @Sendable () async throws -> Void
    private let done = Locked(false)
    private let real = URLSessionTransport()

    init(meanwhile: @escaping @Sendable () async throws -> Void) {
        self.meanwhile = meanwhile
    }

    func send(_ request: HTTPRequest, timeout: Duration) async throws(HTTPError.Reason) -> HTTPResponse {
        let response = try await real.send(request, timeout: timeout)
        let first =
            request.method == .post
            && done.withLock { done in
                defer { done = true }
                return !done
            }
        if first {
            do {
                try await meanwhile()
            } catch {
                throw .connectionLost("the interleaved operation failed: \(error)")
            }
        }
        return response
    }
}

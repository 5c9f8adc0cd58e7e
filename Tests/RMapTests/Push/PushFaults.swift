import Foundation
import RMapHTTP
import RMapSQLite
import Synchronization

/// Sends every request for real, but the answers of the first `limit` `POST`s are lost on
/// the way back: the server created the object, the client saw a broken connection (a fault
/// a real server cannot be asked for).
final class AnswerLosingTransport: HTTPTransport {
    private let limit: Int
    private let lost = Mutex(0)
    private let real = URLSessionTransport()

    init(losing limit: Int) {
        self.limit = limit
    }

    func send(_ request: HTTPRequest, timeout: Duration) async throws(HTTPError.Reason) -> HTTPResponse {
        let response = try await real.send(request, timeout: timeout)
        let lose =
            request.method == .post
            && lost.withLock { count in
                count += 1
                return count <= limit
            }
        if lose { throw .connectionLost("the answer was lost (fault injection)") }
        return response
    }
}

/// Sends every request for real, then, before handing the answer back, takes the SQLite
/// file's write lock on a connection of its own (`BEGIN IMMEDIATE`) and holds it until
/// ``release()``: another process busy with the store while the push records the answer.
final class LockingTransport: HTTPTransport {
    private let path: String
    private let holder = Mutex<SQLiteConnection?>(nil)
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

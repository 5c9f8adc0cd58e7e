import Foundation
import RMap

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `URLSession` delegate of ``URLSessionTransport``: hands each task's
/// answer back to the request waiting for it, streaming the body to its
/// ``BodyDestination`` and stopping at its limit, and refuses redirects
/// (the client follows them itself).
///
/// The only state, the transfers by task, is ``Locked``; each ``Transfer`` is
/// touched by the session's serial delegate queue alone once its task is resumed.
final class TransferDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let transfers = Locked<[Int: Transfer]>([:])

    /// Runs `task` and returns its answer; cancelling the calling task cancels it.
    func run(_ task: URLSessionDataTask, request: HTTPRequest, body: BodyDestination) async -> Result<
        HTTPResponse, HTTPError.Reason
    > {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard !Task.isCancelled else { return continuation.resume(returning: .failure(.cancelled)) }
                let transfer = Transfer(url: request.url, destination: body, continuation: continuation)
                transfers.withLock { $0[task.taskIdentifier] = transfer }
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let accepted = transfer(of: dataTask)?.begin(response) ?? false
        completionHandler(accepted ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let transfer = transfer(of: dataTask), !transfer.receive(data) else { return }
        dataTask.cancel()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let transfer = transfers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        transfer?.finish(error)
    }

    private func transfer(of task: URLSessionTask) -> Transfer? {
        transfers.withLock { $0[task.taskIdentifier] }
    }
}

/// One request's answer as it arrives: its head, then its body into memory or a file.
private final class Transfer {
    private let url: URL
    private let destination: BodyDestination
    private let continuation: CheckedContinuation<Result<HTTPResponse, HTTPError.Reason>, Never>
    private var response: HTTPURLResponse?
    private var memory = Data()
    private var file: FileHandle?
    private var received = 0
    private var failure: HTTPError.Reason?

    init(
        url: URL, destination: BodyDestination,
        continuation: CheckedContinuation<Result<HTTPResponse, HTTPError.Reason>, Never>
    ) {
        self.url = url
        self.destination = destination
        self.continuation = continuation
    }

    /// Takes the answer's head; false when the body must not be read.
    func begin(_ response: URLResponse) -> Bool {
        guard let http = response as? HTTPURLResponse else {
            failure = .connectionLost("not an HTTP response")
            return false
        }
        self.response = http
        guard let path = destination.file, (200..<300).contains(http.statusCode) else { return true }
        guard FileManager.default.createFile(atPath: path.path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = FileHandle(forWritingAtPath: path.path)
        else {
            failure = .spool("cannot create \(path.path)")
            return false
        }
        file = handle
        return true
    }

    /// Takes a piece of the body; false when the transfer must stop.
    func receive(_ data: Data) -> Bool {
        guard failure == nil else { return false }
        received += data.count
        guard received <= destination.limit else {
            failure = .tooLarge(limit: destination.limit)
            return false
        }
        guard let file else {
            memory.append(data)
            return true
        }
        do {
            try file.write(contentsOf: data)
            return true
        } catch {
            failure = .spool(error.localizedDescription)
            return false
        }
    }

    /// Ends the transfer and hands the outcome to the waiting request.
    func finish(_ error: (any Error)?) {
        try? file?.close()
        if let failure {
            continuation.resume(returning: .failure(failure))
        } else if let error {
            continuation.resume(returning: .failure(Self.reason(for: error)))
        } else if let response {
            let headers = response.allHeaderFields.compactMap { name, value -> (name: String, value: String)? in
                guard let name = name as? String, let value = value as? String else { return nil }
                return (name, value)
            }
            continuation.resume(
                returning: .success(
                    HTTPResponse(
                        status: response.statusCode, headers: HTTPHeaders(headers.sorted { $0.name < $1.name }),
                        body: memory, url: response.url ?? url)))
        } else {
            continuation.resume(returning: .failure(.connectionLost("not an HTTP response")))
        }
    }

    /// Sorts a `URLSession` failure into the client's reasons.
    private static func reason(for error: any Error) -> HTTPError.Reason {
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

internal import CCurl
import Foundation
import Synchronization

/// One request sent with libcurl: owns its easy handle (or borrows one of a
/// ``CurlHandles`` pool until it is performed), header list and error buffer
/// (freed in `deinit`) and collects the answer's head and body as they arrive.
///
/// `@unchecked Sendable` because it owns C resources that libcurl's callbacks write through a
/// raw pointer: it is made on one thread and performed on another, one after the other; only
/// the cancellation flag, an `Atomic`, is touched from a third thread while it runs.
final class CurlTransfer: @unchecked Sendable {
    private let request: HTTPRequest
    private let timeout: Duration
    private let destination: BodyDestination
    private let cancelled = Atomic(false)
    private let handle: UnsafeMutableRawPointer?
    private let handles: CurlHandles?
    private let fields: UnsafeMutablePointer<curl_slist>?
    private let message: UnsafeMutablePointer<CChar>
    private var status = 0
    private var headers: [(name: String, value: String)] = []
    private var memory = Data()
    private var file: FileHandle?
    private var received = 0
    private var failure: HTTPError.Reason?

    /// Prepares the transfer, with a handle of `handles` (kept connections) or a new one.
    init(request: HTTPRequest, timeout: Duration, destination: BodyDestination, handles: CurlHandles? = nil) {
        self.request = request
        self.timeout = timeout
        self.destination = destination
        self.handles = handles
        handle = Self.ready ? handles?.take() ?? curl_easy_init() : nil
        var fields: UnsafeMutablePointer<curl_slist>?
        for field in request.headers + [("Expect", "")] {
            fields = curl_slist_append(fields, field.value.isEmpty ? "\(field.name):" : "\(field.name): \(field.value)")
        }
        self.fields = fields
        message = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        message.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        if handles == nil { curl_easy_cleanup(handle) }
        curl_slist_free_all(fields)
        message.deallocate()
    }

    /// Stops the transfer at libcurl's next progress call.
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    /// Sends the request and waits for the whole answer (blocking this thread); a borrowed handle
    /// goes back to its pool before this returns. Call once.
    func perform() -> Result<HTTPResponse, HTTPError.Reason> {
        guard let handle else { return .failure(.connectionLost("libcurl could not start")) }
        configure(handle)
        let code = curl_easy_perform(handle)
        handles?.recycle(handle)
        try? file?.close()
        if let failure { return .failure(failure) }
        guard code == CURLE_OK else { return .failure(reason(code, message: String(cString: message))) }
        if let path = destination.file, file == nil, (200..<300).contains(status),
            !FileManager.default.createFile(atPath: path.path, contents: nil, attributes: [.posixPermissions: 0o600])
        {
            return .failure(.spool("cannot create \(path.path)"))
        }
        return .success(
            HTTPResponse(
                status: status, headers: HTTPHeaders(headers.sorted { $0.name < $1.name }), body: memory,
                url: request.url))
    }

    // MARK: - Options

    /// Sets the request, the limits and the callbacks (libcurl copies the strings and the body).
    private func configure(_ handle: UnsafeMutableRawPointer) {
        let this = Unmanaged.passUnretained(self).toOpaque()
        _ = rmap_curl_set_string(handle, CURLOPT_URL, request.url.absoluteString)
        // Only the web: a `next` link or redirect to file:// or ftp:// must not read anything.
        _ = rmap_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = rmap_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, request.method.rawValue)
        _ = rmap_curl_set_pointer(handle, CURLOPT_HTTPHEADER, fields)
        if let body = request.body {
            _ = rmap_curl_set_size(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            body.withUnsafeBytes { bytes in
                _ = rmap_curl_set_pointer(
                    handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
            }
        }
        _ = rmap_curl_set_string(handle, CURLOPT_ACCEPT_ENCODING, "")
        _ = rmap_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = rmap_curl_set_long(handle, CURLOPT_TIMEOUT_MS, Int(timeout / .milliseconds(1)))
        _ = rmap_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, message)
        _ = rmap_curl_set_data_callback(handle, CURLOPT_HEADERFUNCTION) { bytes, size, count, this in
            Unmanaged<CurlTransfer>.fromOpaque(this!).takeUnretainedValue().head(bytes, size * count)
        }
        _ = rmap_curl_set_pointer(handle, CURLOPT_HEADERDATA, this)
        _ = rmap_curl_set_data_callback(handle, CURLOPT_WRITEFUNCTION) { bytes, size, count, this in
            Unmanaged<CurlTransfer>.fromOpaque(this!).takeUnretainedValue().body(bytes, size * count)
        }
        _ = rmap_curl_set_pointer(handle, CURLOPT_WRITEDATA, this)
        _ = rmap_curl_set_progress_callback(handle) { this, _, _, _, _ in
            Unmanaged<CurlTransfer>.fromOpaque(this!).takeUnretainedValue().cancelled.load(ordering: .relaxed) ? 1 : 0
        }
        _ = rmap_curl_set_pointer(handle, CURLOPT_XFERINFODATA, this)
        _ = rmap_curl_set_long(handle, CURLOPT_NOPROGRESS, 0)
    }
}

// MARK: - Callbacks (on the transfer's thread)

extension CurlTransfer {
    /// libcurl is initialised once per process, before any handle (not thread-safe otherwise).
    private static let ready = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    /// Takes one header line; a status line starts a new answer (after a `100 Continue`).
    /// Read as bytes: Foundation's trimming cost more than the rest of a push's answer.
    fileprivate func head(_ bytes: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard let bytes else { return count }
        let line = Self.trimmed(UnsafeRawBufferPointer(start: bytes, count: count)[...])
        if line.starts(with: "HTTP/".utf8) {
            let words = line.split(separator: UInt8(ascii: " "), maxSplits: 2)
            status = words.count > 1 ? Int(String(decoding: words[1], as: UTF8.self)) ?? 0 : 0
            headers = []
        } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            headers.append(
                (
                    String(decoding: line[..<colon], as: UTF8.self),
                    String(decoding: Self.trimmed(line[(colon + 1)...]), as: UTF8.self)
                ))
        }
        return count
    }

    /// `bytes` without the spaces, tabs and line ends around them.
    private static func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        guard let first = bytes.firstIndex(where: { !blank($0) }), let last = bytes.lastIndex(where: { !blank($0) })
        else { return bytes[bytes.endIndex...] }
        return bytes[first...last]
    }

    /// Takes a piece of the (inflated) body; returning less than `count` stops the transfer.
    fileprivate func body(_ bytes: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard let bytes, failure == nil else { return 0 }
        received += count
        guard received <= destination.limit else {
            failure = .tooLarge(limit: destination.limit)
            return 0
        }
        let data = Data(bytes: bytes, count: count)
        guard let path = destination.file, (200..<300).contains(status) else {
            memory.append(data)
            return count
        }
        do {
            if file == nil {
                let created = FileManager.default.createFile(
                    atPath: path.path, contents: nil, attributes: [.posixPermissions: 0o600])
                guard created else {
                    throw CocoaError(.fileWriteUnknown)
                }
                file = try FileHandle(forWritingTo: path)
            }
            try file?.write(contentsOf: data)
            return count
        } catch {
            failure = .spool("cannot write \(path.path): \(error.localizedDescription)")
            return 0
        }
    }

    /// Sorts a libcurl failure into the client's reasons.
    fileprivate func reason(_ code: CURLcode, message: String) -> HTTPError.Reason {
        let detail = message.isEmpty ? String(cString: curl_easy_strerror(code)) : message
        switch code {
        case CURLE_OPERATION_TIMEDOUT: return .timeout
        case CURLE_ABORTED_BY_CALLBACK: return .cancelled
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .cannotConnect(detail)
        default: return .connectionLost(detail)
        }
    }
}

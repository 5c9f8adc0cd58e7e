import Foundation
import RMap

/// One line of a recording's `exchanges.jsonl`: the request (method, URL, headers, body) and
/// what came back, an answer (status, headers, the file holding its body) or a failure, all
/// already redacted.
///
/// ```json
/// {"exchange": 1, "request": {"method": "GET", "url": "http://127.0.0.1:8000/page/people/?page=1",
///  "headers": [["Accept", "application/json"], ["Authorization", "***"]], "body": null},
///  "response": {"status": 200, "headers": [["Content-Type", "application/json"]], "body": "000001.body"}}
/// ```
struct RecordedExchange: Sendable {
    /// What came back.
    enum Outcome: Sendable {
        /// An answer; its body is in the recording's file `body`.
        case response(status: Int, headers: [(name: String, value: String)], body: String)
        /// No answer: the transport's reason.
        case failure(HTTPError.Reason)
    }

    /// The exchange's number, in the order exchanges finished (from 1).
    var number: Int
    var method: String
    var url: String
    var headers: [(name: String, value: String)]
    var body: String?
    var outcome: Outcome

    /// What a replayed request must match: method, URL and body (all redacted).
    var key: String { Self.key(method: method, url: url, body: body) }

    /// The match key of a request: its method, its URL without the origin (a replay may reach
    /// the API at another address, `${API_URL}` set otherwise than when it was recorded), and
    /// its body.
    static func key(method: String, url: String, body: String?) -> String {
        var target = url
        if let components = URLComponents(string: url), let range = components.rangeOfPath {
            target = String(url[range.lowerBound...])
        }
        return "\(method) \(target)\n\(body ?? "")"
    }

    /// The exchange as one JSON line.
    var line: String {
        var members: [(key: String, value: JSONValue)] = [
            ("exchange", .number(String(number))),
            (
                "request",
                .object(
                    JSONObject([
                        ("method", .string(method)), ("url", .string(url)), ("headers", Self.json(headers)),
                        ("body", body.map(JSONValue.string) ?? .null),
                    ]))
            ),
        ]
        switch outcome {
        case .response(let status, let headers, let body):
            members.append(
                (
                    "response",
                    .object(
                        JSONObject([
                            ("status", .number(String(status))), ("headers", Self.json(headers)),
                            ("body", .string(body)),
                        ]))
                ))
        case .failure(let reason):
            members.append(("error", .object(JSONObject(FailureCoding.json(reason)))))
        }
        return JSONWriter.serialize(.object(JSONObject(members)))
    }

    init(
        number: Int, method: String, url: String, headers: [(name: String, value: String)], body: String?,
        outcome: Outcome
    ) {
        self.number = number
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.outcome = outcome
    }

    /// Reads a line of `exchanges.jsonl`.
    ///
    /// - Throws: a sentence saying what is missing.
    init(line: String) throws(ExchangeLine) {
        guard let json = try? JSONReader.parse(line, origin: "line"), let object = json.object,
            let number = object["exchange"].flatMap(Self.int), let request = object["request"]?.object,
            let method = request["method"]?.string, let url = request["url"]?.string,
            let headers = request["headers"].flatMap(Self.headers)
        else {
            throw ExchangeLine(
                reason: "expected {\"exchange\", \"request\": {\"method\", \"url\", \"headers\", \"body\"}, ...}")
        }
        self.number = number
        self.method = method
        self.url = url
        self.headers = headers
        body = request["body"]?.string
        if let response = object["response"]?.object {
            guard let status = response["status"].flatMap(Self.int),
                let headers = response["headers"].flatMap(Self.headers), let body = response["body"]?.string,
                !body.contains("/")
            else { throw ExchangeLine(reason: "expected \"response\": {\"status\", \"headers\", \"body\"}") }
            outcome = .response(status: status, headers: headers, body: body)
        } else if let error = object["error"]?.object, let reason = FailureCoding.reason(error) {
            outcome = .failure(reason)
        } else {
            throw ExchangeLine(reason: "expected \"response\" or \"error\"")
        }
    }

    /// Why a line is not an exchange.
    struct ExchangeLine: Error {
        var reason: String
    }

    private static func json(_ headers: [(name: String, value: String)]) -> JSONValue {
        .array(headers.map { .array([.string($0.name), .string($0.value)]) })
    }

    private static func headers(_ json: JSONValue) -> [(name: String, value: String)]? {
        guard let items = json.array else { return nil }
        var headers: [(name: String, value: String)] = []
        for item in items {
            guard let pair = item.array, pair.count == 2, let name = pair[0].string, let value = pair[1].string else {
                return nil
            }
            headers.append((name, value))
        }
        return headers
    }

    private static func int(_ json: JSONValue) -> Int? {
        if case .number(let digits) = json { return Int(digits) }
        return nil
    }
}

/// Transport failures as a recording writes them: `{"kind": "timeout"}`,
/// `{"kind": "cannot_connect", "detail": "..."}`.
enum FailureCoding {
    static func json(_ reason: HTTPError.Reason) -> [(key: String, value: JSONValue)] {
        switch reason {
        case .timeout: [("kind", .string("timeout"))]
        case .cannotConnect(let detail): [("kind", .string("cannot_connect")), ("detail", .string(detail))]
        case .connectionLost(let detail): [("kind", .string("connection_lost")), ("detail", .string(detail))]
        case .tooLarge(let limit): [("kind", .string("too_large")), ("limit", .number(String(limit)))]
        default: [("kind", .string("connection_lost")), ("detail", .string("\(reason)"))]
        }
    }

    static func reason(_ object: JSONObject) -> HTTPError.Reason? {
        let detail = object["detail"]?.string ?? ""
        switch object["kind"]?.string {
        case "timeout": return .timeout
        case "cannot_connect": return .cannotConnect(detail)
        case "connection_lost": return .connectionLost(detail)
        case "too_large":
            guard case .number(let digits)? = object["limit"], let limit = Int(digits) else { return nil }
            return .tooLarge(limit: limit)
        default: return nil
        }
    }
}

extension RecordedExchange {
    /// A request's URL and body as a recording holds them: redacted.
    static func redacted(_ request: HTTPRequest, redactor: Redactor) -> (url: String, body: String?) {
        (
            redactor.redact(request.url.absoluteString),
            request.body.map { redactor.redact(String(decoding: $0, as: UTF8.self)) }
        )
    }
}

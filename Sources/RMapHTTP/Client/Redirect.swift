import Foundation

/// Follows redirects by hand, so that each hop's credentials are decided
/// anew (``CredentialScope``) rather than copied by the URL loading system.
enum Redirect {
    /// How many redirects one request may follow.
    static let limit = 10

    /// True for a `301`, `302`, `303`, `307` or `308` answer that names where to go.
    static func isRedirect(_ response: HTTPResponse) -> Bool {
        [301, 302, 303, 307, 308].contains(response.status) && response.location != nil
    }

    /// The request to send after `response` redirected `request`: to the `Location`, as
    /// browsers and curl do (`303`, and `301`/`302` after a `POST`, become a `GET` without body).
    static func next(after response: HTTPResponse, of request: HTTPRequest) -> HTTPRequest? {
        guard isRedirect(response), let location = response.location else { return nil }
        var next = request
        next.url = location
        if response.status == 303 || ([301, 302].contains(response.status) && request.method == .post) {
            next.method = .get
            next.body = nil
            next.headers["Content-Type"] = nil
        }
        return next
    }
}

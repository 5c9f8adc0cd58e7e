/// How a `date` or `datetime` attribute's payload value is read.
public enum TimeFormat: Sendable, Hashable {
    /// ISO 8601 text (the default).
    case iso8601
    /// Seconds since 1970 as a number.
    case epochSeconds
    /// Milliseconds since 1970 as a number.
    case epochMilliseconds
    /// .NET's JSON date, `/Date(1000212360000-0400)/`: milliseconds since 1970 (UTC), then an
    /// optional offset that says where it was written and changes nothing.
    case dotnet
    /// A Unicode date pattern such as `dd/MM/yyyy HH:mm`, read and written in `timeZone` (an IANA
    /// identifier; `nil`: UTC) unless the pattern itself reads a zone.
    case pattern(String, timeZone: String? = nil)
}

extension TimeFormat {
    /// The format a `format:` value names: `iso8601`, `epoch_s`, `epoch_ms`, `dotnet`, or a Unicode
    /// pattern read in `timeZone` (`nil`: UTC).
    public init(name: String, timeZone: String? = nil) {
        switch name {
        case "iso8601": self = .iso8601
        case "epoch_s": self = .epochSeconds
        case "epoch_ms": self = .epochMilliseconds
        case "dotnet": self = .dotnet
        default: self = .pattern(name, timeZone: timeZone)
        }
    }
}

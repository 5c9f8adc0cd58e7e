/// .NET's JSON dates (`format: dotnet`), as ASP.NET's `DataContractJsonSerializer` writes
/// them: `/Date(1000212360000-0400)/` is 1000212360000 milliseconds after 1970-01-01T00:00:00Z;
/// the offset says in which zone the writer was and does not move the instant.
enum DotNetDate {
    /// The instant of `/Date(ms)/` or `/Date(ms±HHMM)/`; `nil` for any other text.
    static func timestamp(_ text: String) -> Timestamp? {
        guard text.hasPrefix("/Date("), text.hasSuffix(")/") else { return nil }
        var body = Substring(text.dropFirst(6).dropLast(2))
        if let sign = body.dropFirst().lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let offset = body[body.index(after: sign)...]
            guard offset.count == 4, offset.allSatisfy(\.isASCIIDigit) else { return nil }
            body = body[..<sign]
        }
        guard !body.isEmpty, body.dropFirst(body.first == "-" ? 1 : 0).allSatisfy(\.isASCIIDigit),
            let milliseconds = Int64(body)
        else { return nil }
        return Timestamp(milliseconds: milliseconds)
    }

    /// `/Date(ms+0000)/`: how a push writes a `dotnet` value.
    static func text(_ stamp: Timestamp) -> String {
        "/Date(\(stamp.milliseconds)+0000)/"
    }
}

extension Character {
    /// `0` to `9`.
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

import RMap

/// A GitHub Actions workflow command that annotates a file:
/// `::error file=mappings/crm.yml,line=14,col=7::unknown key 'forign_key' ...`.
///
/// Property values escape `%`, CR, LF, `:` and `,`; the message escapes `%`,
/// CR and LF, as the Actions runner expects.
enum GitHubAnnotation {
    /// The `::error` line for a mapping problem.
    static func error(_ issue: MappingIssue) -> String {
        let properties = [
            "file=" + escape(issue.mark.file, property: true), "line=\(issue.mark.line)", "col=\(issue.mark.column)",
        ]
        return "::error " + properties.joined(separator: ",") + "::" + escape(issue.message, property: false)
    }

    private static func escape(_ text: String, property: Bool) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "%": escaped += "%25"
            case "\r": escaped += "%0D"
            case "\n": escaped += "%0A"
            case ":" where property: escaped += "%3A"
            case "," where property: escaped += "%2C"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

/// The help pages, laid out as swift-argument-parser lays them out.
enum HelpText {
    /// The help of one subcommand.
    static func command(_ spec: CommandSpec) -> String {
        var sections = ["OVERVIEW: \(spec.abstract)", "USAGE: \(spec.usage)"]
        if let positionals = spec.positionals {
            sections.append("ARGUMENTS:\n" + row(positionals.label, positionals.help))
        }
        let options = spec.options.map(\.spec).map { row($0.label + ($0.repeats ? " ..." : ""), $0.help) }
        sections.append(
            (["OPTIONS:"] + options + [row("-h, --help", "Show help information.")]).joined(separator: "\n"))
        if !spec.discussion.isEmpty { sections.append(spec.discussion) }
        if !spec.exitStatuses.isEmpty { sections.append(ExitCode.helpText(spec.exitStatuses)) }
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// The top-level help: the subcommands.
    static func root(_ commands: [CommandSpec], abstract: String) -> String {
        let subcommands = commands.map { row($0.name, $0.abstract) }
        return [
            "OVERVIEW: \(abstract)",
            "USAGE: rmap <subcommand>",
            ["OPTIONS:", row("--version", "Show the version."), row("-h, --help", "Show help information.")]
                .joined(separator: "\n"),
            (["SUBCOMMANDS:"] + subcommands).joined(separator: "\n"),
            "  See 'rmap help <subcommand>' for detailed help.",
        ].joined(separator: "\n\n") + "\n"
    }

    /// `  label                   help`, the help moving to the next line when the label is long.
    private static func row(_ label: String, _ help: String) -> String {
        let width = 24
        let indent = String(repeating: " ", count: width + 2)
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var text = "  " + label
        if label.count < width - 1 {
            text += String(repeating: " ", count: width - label.count) + (lines.first ?? "")
        } else {
            text += "\n" + indent + (lines.first ?? "")
        }
        for line in lines.dropFirst() { text += "\n" + indent + line }
        return text
    }
}

import Foundation

/// A Markdown page read as the steps a user following it would take, each with
/// what the page says will come out.
///
/// Four conventions mark what is checked:
///
/// - a ```` ```console ```` block is a terminal session: each `$ command` line
///   runs in a shell, and the lines after it, up to the next `$`, are its
///   output (stdout and stderr together, as a terminal shows them);
/// - `<!-- not run: REASON -->` on the line before a block says why it is not
///   run (it needs a server the suite does not have, it is a test command
///   itself, ...); every other block of commands (```` ```sh ````, or a text
///   block whose first line is a `$ command`) is a page error, ``unmarked``;
/// - `<!-- file: NAME -->` on the line before a fenced block writes the block
///   to the file NAME, for later commands to use;
/// - `<!-- output of NAME -->` on the line before a fenced block says the
///   block is what the page's Swift example NAME (`readme-1`: the first Swift
///   block of README.md) prints, run by `rmap-doc-examples NAME`.
struct DocTranscript {
    /// One thing to do, and what it must print.
    enum Step: Equatable {
        /// Write `text` to the file `name`.
        case file(name: String, text: String)
        /// Run `command` in a shell; it must print `output`.
        case command(String, output: String, line: Int)
        /// Run the Swift example `name`; it must print `output`.
        case example(name: String, output: String, line: Int)
    }

    /// The page's steps, in order.
    var steps: [Step]
    /// The blocks marked `<!-- not run: REASON -->`: the line each starts on, and the reason.
    var notRun: [(line: Int, reason: String)] = []
    /// The lines of blocks of commands that are neither a console session nor marked as not run.
    var unmarked: [Int] = []

    /// The languages of blocks that hold commands to type.
    static let commandLanguages: Set = ["console", "sh", "bash", "shell"]

    /// Reads the steps of a page.
    init(markdown: String) {
        steps = []
        var marker: String?
        var lines = markdown.components(separatedBy: "\n").enumerated().makeIterator()
        while let (index, line) = lines.next() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let language = trimmed.dropFirst(3)
            guard trimmed.hasPrefix("```"), !language.isEmpty, language.allSatisfy(\.isLetter) else {
                marker = Self.marker(trimmed)
                continue
            }
            let indent = line.prefix { $0 == " " }.count
            var block: [String] = []
            while let (_, inner) = lines.next(), inner.trimmingCharacters(in: .whitespaces) != "```" {
                block.append(String(inner.dropFirst(min(indent, inner.prefix { $0 == " " }.count))))
            }
            if let reason = marker?.trimmedPrefix("not run:") {
                if reason.isEmpty { unmarked.append(index + 2) } else { notRun.append((index + 2, reason)) }
            } else if language != "console",
                Self.commandLanguages.contains(String(language))
                    || block.first?.hasPrefix("$ ") == true
            {
                unmarked.append(index + 2)
            } else {
                steps += Self.steps(language: String(language), block, marker: marker, line: index + 2)
            }
            marker = nil
        }
    }

    /// `file: crm.yml` from `<!-- file: crm.yml -->`, `nil` for any other line.
    private static func marker(_ line: String) -> String? {
        guard line.hasPrefix("<!--"), line.hasSuffix("-->") else { return nil }
        return line.dropFirst(4).dropLast(3).trimmingCharacters(in: .whitespaces)
    }

    private static func steps(language: String, _ block: [String], marker: String?, line: Int) -> [Step] {
        let text = block.map { $0 + "\n" }.joined()
        if language == "console" { return commands(block, line: line) }
        if let name = marker?.trimmedPrefix("file:") { return [.file(name: name, text: text)] }
        if let name = marker?.trimmedPrefix("output of") { return [.example(name: name, output: text, line: line)] }
        return []
    }

    /// The `$ command` lines of a console block, each with the lines after it.
    private static func commands(_ block: [String], line: Int) -> [Step] {
        var steps: [Step] = []
        for (offset, text) in block.enumerated() {
            if text.hasPrefix("$ ") {
                steps.append(.command(String(text.dropFirst(2)), output: "", line: line + offset))
            } else if case .command(let command, let output, let at)? = steps.last {
                steps[steps.count - 1] = .command(command, output: output + text + "\n", line: at)
            }
        }
        return steps
    }
}

extension String {
    /// The rest of the string after `prefix`, trimmed; `nil` when it does not start with `prefix`.
    fileprivate func trimmedPrefix(_ prefix: String) -> String? {
        hasPrefix(prefix) ? dropFirst(prefix.count).trimmingCharacters(in: .whitespaces) : nil
    }
}

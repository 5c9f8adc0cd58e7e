import Foundation
import PackagePlugin

/// Compiles the documentation's Swift examples: every ```swift block of
/// `README.md` and `docs/*.md` becomes a function of the target that uses the
/// plugin (`rmap-doc-examples`), so a doc example that stops compiling breaks
/// the build, with the error at its line in the Markdown file.
@main
struct DocExamplesPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let root = context.package.directoryURL
        let docs = root.appending(path: "docs")
        let pages = try FileManager.default.contentsOfDirectory(at: docs, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "md" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let markdown = [root.appending(path: "README.md")] + pages
        let output = context.pluginWorkDirectoryURL.appending(path: "DocExamples.swift")
        return [
            .buildCommand(
                displayName: "Extracting the Swift examples of README.md and docs/",
                executable: try context.tool(named: "doc-extract").url,
                arguments: [output.path] + markdown.map(\.path),
                inputFiles: markdown,
                outputFiles: [output])
        ]
    }
}

import Foundation
import RMap

/// `rmap plugins`: the sources, stores, transformers and stages available.
struct PluginsCommand: CLICommand {
    static let spec = CommandSpec(
        name: "plugins",
        abstract: "List the sources, stores, transformers and stages mapping files may use.")

    init(_ arguments: ParsedArguments) throws(UsageError) {}

    func run(_ context: CommandContext) async -> ExitCode {
        let catalog = context.registry.catalog
        var lines = ["sources:"] + plugins(catalog.sources)
        lines += ["stores:"] + plugins(catalog.stores)
        lines += ["transformers:"] + names(catalog.transformers)
        lines += ["stages:"] + names(context.registry.stages.map(\.name))
        context.output.write(lines.joined(separator: "\n") + "\n")
        return .success
    }

    /// `  name      option, option`, sorted by name.
    private func plugins(_ plugins: [String: [String]]) -> [String] {
        let width = (plugins.keys.map(\.count).max() ?? 0) + 2
        return plugins.keys.sorted().map { name in
            let options = plugins[name] ?? []
            let line =
                options.isEmpty
                ? name : name.padding(toLength: width, withPad: " ", startingAt: 0) + options.joined(separator: ", ")
            return "  " + line
        }
    }

    private func names(_ names: [String]) -> [String] {
        names.isEmpty ? ["  (none)"] : names.map { "  " + $0 }
    }
}

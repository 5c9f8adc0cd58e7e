import Foundation
import RMap

/// `rmap plugins`: the sources, stores, transformers and stages available, each
/// with the module it comes from and the option keys it accepts.
struct PluginsCommand: CLICommand {
    static let spec = CommandSpec(
        name: "plugins",
        abstract: "List the sources, stores, transformers and stages mapping files may use.",
        exitStatuses: [(.success, "the plugins were listed"), (.usage, "usage error")])

    /// The modules of rmap itself; a plugin registered by any other module comes from the program
    /// that runs the command line (``RMapCommandLine/main(registry:)``).
    static let builtinModules: Set = ["RMap", "RMapSQLite", "RMapPostgres", "RMapHTTP", "RMapCommandLine"]

    init(_ arguments: ParsedArguments) throws(UsageError) {}

    func run(_ context: CommandContext) async -> ExitCode {
        let plugins = context.registry.plugins
        let lines = PluginDescription.Kind.allCases.flatMap { kind in
            ["\(kind.rawValue)s:"] + table(plugins.filter { $0.kind == kind })
        }
        context.output.write(lines.joined(separator: "\n") + "\n")
        return .success
    }

    /// `  name  module  option, option`, in columns.
    private func table(_ plugins: [PluginDescription]) -> [String] {
        guard !plugins.isEmpty else { return ["  (none)"] }
        let rows = plugins.map { plugin in
            [
                plugin.name,
                Self.builtinModules.contains(plugin.module) ? plugin.module : "\(plugin.module) (this program)",
                plugin.always ? "runs in every run" : plugin.options.joined(separator: ", "),
            ]
        }
        let widths = (0..<2).map { column in (rows.map { $0[column].count }.max() ?? 0) + 2 }
        return rows.map { row in
            let line =
                row[0].padding(toLength: widths[0], withPad: " ", startingAt: 0)
                + row[1].padding(toLength: widths[1], withPad: " ", startingAt: 0) + row[2]
            return "  " + line.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
    }
}

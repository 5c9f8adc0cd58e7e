import Foundation
public import RMap

/// The `rmap` command line as a library: a program that registers plugins of
/// its own gets every subcommand, with `rmap plugins` listing its plugins
/// beside the built-in ones.
///
/// ```swift
/// import RMap
/// import RMapCommandLine
///
/// let registry = RMapCommandLine.standardRegistry()
/// registry.register(transformer: "reverse", ClosureTransformer { value in
///     if case .string(let text) = value { return .string(String(text.reversed())) }
///     return value
/// })
/// await RMapCommandLine.main(registry: registry)
/// ```
public enum RMapCommandLine {
    /// Every plugin `rmap` offers: ``PluginRegistry/standard()`` with the SQLite, PostgreSQL and HTTP plugins.
    public static func standardRegistry() -> PluginRegistry {
        RegistryFactory.standard()
    }

    /// Runs the command line with `arguments` (without the program's name), writing to
    /// standard output and error, and returns the exit status (0, 1, 2 or 3: docs/cli.md).
    public static func run(_ arguments: [String], registry: PluginRegistry) async -> Int32 {
        await CommandLineInterface(context: CommandContext(registry: registry)).run(arguments).rawValue
    }

    /// Runs the command line with the process's arguments and exits with its status.
    ///
    /// It first deletes the private temporary folders that killed runs left behind
    /// (``PrivateFolder/removeAbandoned()``) and installs the handling of `SIGINT` and
    /// `SIGTERM`: the programs rmap runs are stopped, its private files deleted, and what
    /// the store holds is said on stderr before rmap dies by the signal.
    public static func main(registry: PluginRegistry = standardRegistry()) async -> Never {
        InterruptHandler.install()
        PrivateFolder.removeAbandoned()
        InterruptHandler.exit(await run(Array(CommandLine.arguments.dropFirst()), registry: registry))
    }
}

import PluginExample
import RMapCommandLine

// rmap with the example's plugins beside the built-in ones: every subcommand, and
// `rmap-example plugins` lists the csv source, the initials stage and the slug transformer.
let registry = RMapCommandLine.standardRegistry()
registry.registerExample()
await RMapCommandLine.main(registry: registry)

import Foundation

let interface = CommandLineInterface(context: CommandContext(registry: RegistryFactory.standard()))
let status = await interface.run(Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)

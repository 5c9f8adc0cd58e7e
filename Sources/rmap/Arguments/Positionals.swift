/// A command's positional arguments, declared once: their placeholder, their help and how
/// many the command takes.
struct Positionals: Sendable {
    /// How many positional arguments a command takes.
    enum Count: Sendable {
        /// One or more: `<mapping> ...`.
        case oneOrMore
        /// Any number, none included: `[<payload> ...]`.
        case any
        /// None or one: `[<subcommand>]`.
        case atMostOne
    }

    /// The placeholder: `mapping` shows as `<mapping> ...`.
    var placeholder: String
    /// One line of help (or several, separated by newlines).
    var help: String
    /// How many the command takes.
    var count = Count.oneOrMore

    /// The mapping files that most commands take.
    static let mappings = Positionals(placeholder: "mapping", help: "The mapping files (YAML), merged into one model.")

    /// `<mapping> ...` or `<subcommand>`, as help's `ARGUMENTS:` lists it and errors name it.
    var label: String {
        count == .atMostOne ? "<\(placeholder)>" : "<\(placeholder)> ..."
    }

    /// `<mapping> ...`, `[<payload> ...]` or `[<subcommand>]`, as the usage line shows it.
    var synopsis: String {
        count == .oneOrMore ? label : "[\(label)]"
    }
}

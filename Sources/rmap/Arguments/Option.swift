/// One option of a command, declared once: the ``OptionSpec`` that help, usage lines and the
/// parser use, and how the texts given to it become the typed value the command reads.
///
/// A command keeps its options as static constants, lists them in its spec and reads each
/// with ``ParsedArguments/value(_:)``; the option's name is written only here, so a
/// misspelled option is a compile error rather than a value that is never set:
///
/// ```swift
/// static let strict = Option.flag("strict", "Fail on any rejected record.")
/// static let spec = CommandSpec(name: "run", abstract: "...", options: [strict])
/// init(_ arguments: ParsedArguments) throws(UsageError) {
///     strict = try arguments.value(Self.strict)
/// }
/// ```
struct Option<Value>: OptionDeclaration {
    /// The name, value placeholder, help and alias.
    let spec: OptionSpec
    /// The value from the texts given, in order (a flag's occurrences give empty texts).
    private let read: @Sendable ([String]) throws(InvalidOptionValue) -> Value

    /// An option whose value `read` makes from the texts given to it, in order.
    init(_ spec: OptionSpec, read: @escaping @Sendable ([String]) throws(InvalidOptionValue) -> Value) {
        self.spec = spec
        self.read = read
    }

    /// The value from the texts given on a command line parsed for `command`.
    ///
    /// - Throws: ``UsageError`` showing `command`'s usage when a text does not fit.
    func value(from texts: [String], command: CommandSpec) throws(UsageError) -> Value {
        do {
            return try read(texts)
        } catch {
            throw command.usageError("the value '\(error.text)' is invalid for '\(spec.synopsis)': \(error.reason)")
        }
    }
}

/// What the spec of a command needs of an option, whatever its value's type.
protocol OptionDeclaration: Sendable {
    /// The name, value placeholder, help and alias.
    var spec: OptionSpec { get }
}

/// A text given to an option that does not fit it.
struct InvalidOptionValue: Error {
    /// The text as given.
    var text: String
    /// What is expected instead: `expected a whole number of at least 1`.
    var reason: String
}

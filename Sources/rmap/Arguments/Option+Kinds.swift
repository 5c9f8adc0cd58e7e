import RMap

// MARK: - The kinds of option: flags, texts, converted values, repeated values, choices

extension Option<Bool> {
    /// A flag (`--strict`): true when given.
    static func flag(_ name: String, _ help: String) -> Self {
        Option(OptionSpec(name: name, valueName: nil, help: help)) { !$0.isEmpty }
    }
}

extension Option {
    /// An option with one value (`--output <file>`), made from its text by `convert`; when the
    /// option is given several times the last text counts; `nil` when it is not given.
    static func value<Wrapped>(
        _ name: String, _ valueName: String, short: Character? = nil, _ help: String,
        convert: @escaping @Sendable (String) throws(InvalidOptionValue) -> Wrapped
    ) -> Self where Value == Wrapped? {
        Option(OptionSpec(name: name, valueName: valueName, help: help, short: short)) {
            texts throws(InvalidOptionValue) in try texts.last.map(convert)
        }
    }

    /// An option that may be repeated (`--url <url> ...`): the value of each text, in order.
    static func repeated<Element>(
        _ name: String, _ valueName: String, _ help: String,
        convert: @escaping @Sendable (String) throws(InvalidOptionValue) -> Element
    ) -> Self where Value == [Element] {
        Option(OptionSpec(name: name, valueName: valueName, repeats: true, help: help)) {
            texts throws(InvalidOptionValue) in try texts.map(convert)
        }
    }

    /// An option whose value is one of a choice's cases (`--format <format>`); the last given
    /// counts; `nil` when it is not given.
    static func choice<Choice>(_ name: String, _ help: String) -> Self
    where Value == Choice?, Choice: RawRepresentable & CaseIterable & Sendable, Choice.RawValue == String {
        value(name, name, help) { text throws(InvalidOptionValue) in
            if let choice = Choice(rawValue: text) { return choice }
            let names = Choice.allCases.map(\.rawValue)
            throw InvalidOptionValue(
                text: text,
                reason: "expected one of " + names.joined(separator: ", ") + Suggestion.hint(for: text, in: names))
        }
    }
}

extension Option<String?> {
    /// An option with one text value (`--prefix <prefix>`); the last given counts.
    static func text(_ name: String, _ valueName: String, short: Character? = nil, _ help: String) -> Self {
        value(name, valueName, short: short, help) { $0 }
    }
}

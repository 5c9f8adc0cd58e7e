import Foundation
import RMap

/// Typed values of the options several commands share.
enum OptionValues {
    /// `--store URL` as a store configuration.
    static func store(_ arguments: ParsedArguments, _ spec: CommandSpec) throws(UsageError) -> PluginConfig? {
        guard let text = arguments.value("store") else { return nil }
        do {
            return try StoreURL.parse(text)
        } catch {
            throw spec.usageError("the value '\(text)' is invalid for '--store <url>': \(error.message)")
        }
    }

    /// `--jobs N`: a whole number of at least 1.
    static func jobs(_ arguments: ParsedArguments, _ spec: CommandSpec) throws(UsageError) -> Int? {
        guard let text = arguments.value("jobs") else { return nil }
        guard let jobs = Int(text), jobs >= 1 else {
            throw spec.usageError(
                "the value '\(text)' is invalid for '--jobs <n>': expected a whole number of at least 1")
        }
        return jobs
    }

    /// `--only`, repeated or comma-separated, as entity names in order.
    static func only(_ arguments: ParsedArguments, _ spec: CommandSpec) throws(UsageError) -> [String] {
        var names: [String] = []
        for text in arguments.allValues("only") {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            if parts.contains(where: \.isEmpty) {
                throw spec.usageError(
                    "the value '\(text)' is invalid for '--only <entity>': expected entity names separated by commas")
            }
            for name in parts where !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// `--NAME <placeholder>` as one of a choice's cases, or `fallback` when not given.
    static func choice<Choice: RawRepresentable & CaseIterable>(
        _ arguments: ParsedArguments, _ name: String, _ spec: CommandSpec, default fallback: Choice
    ) throws(UsageError) -> Choice where Choice.RawValue == String {
        guard let text = arguments.value(name) else { return fallback }
        if let choice = Choice(rawValue: text) { return choice }
        let names = Choice.allCases.map(\.rawValue)
        let synopsis = spec.option(named: name)?.synopsis ?? "--\(name)"
        throw spec.usageError(
            "the value '\(text)' is invalid for '\(synopsis)': expected one of "
                + names.joined(separator: ", ") + Suggestion.hint(for: text, in: names))
    }

    /// Help for `--store`.
    static let storeHelp =
        "The store, overriding the files' 'store:': sqlite:PATH (or a bare PATH),\npostgres://..., json:PATH or memory:."
}

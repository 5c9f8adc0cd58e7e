import RMap

// MARK: - The options several commands take, each declared once

extension Option<PluginConfig?> {
    /// `--store <url>`: the store, overriding the mapping files' `store:` (``StoreURL``).
    static var store: Self {
        value(
            "store", "url",
            "The store, overriding the files' 'store:': sqlite:PATH (or a bare PATH),\npostgres://..., json:PATH or memory:."
        ) { text throws(InvalidOptionValue) in
            do throws(StoreURLError) {
                return try StoreURL.parse(text)
            } catch {
                throw InvalidOptionValue(text: text, reason: error.message)
            }
        }
    }
}

extension Option<Bool> {
    /// `--json`: the result as one JSON document; `help` says which.
    static func json(_ help: String) -> Self {
        flag("json", help)
    }

    /// `--dry-run`: everything but the effect; `help` says which.
    static func dryRun(_ help: String) -> Self {
        flag("dry-run", help)
    }
}

extension Option<Int?> {
    /// `--jobs <n>`: how many at once, a whole number of at least 1; `help` says of what.
    static func jobs(_ help: String) -> Self {
        value("jobs", "n", help) { text throws(InvalidOptionValue) in
            guard let jobs = Int(text), jobs >= 1 else {
                throw InvalidOptionValue(text: text, reason: "expected a whole number of at least 1")
            }
            return jobs
        }
    }
}

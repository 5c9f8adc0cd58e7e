/// Converts names between Ruby/Rails and Swift conventions exactly as
/// ActiveSupport's `Inflector` (Rails 7) does: plural and singular forms, camel
/// case and snake case, table names, class names and foreign keys.
///
/// ```swift
/// let inflector = Inflector()
/// inflector.pluralize("person")             // "people"
/// inflector.underscore("ActiveModel::Errors") // "active_model/errors"
/// inflector.camelize("active_model/errors") // "ActiveModel::Errors"
/// inflector.foreignKey("Admin::Post")       // "post_id"
/// ```
///
/// An inflector is an immutable value over one ``Inflections`` rule set; build
/// the rules first, then create the inflector.
public struct Inflector: Sendable {
    /// The rules this inflector applies.
    public let inflections: Inflections

    /// Creates an inflector applying `inflections`, by default Rails' English rules.
    public init(_ inflections: Inflections = .english) {
        self.inflections = inflections
    }

    // MARK: - Plural and singular

    /// The plural form of `word`.
    ///
    /// Uncountable words come back unchanged; otherwise the first plural rule
    /// (most recently added first) that matches is applied. Only the end of a
    /// compound changes, and the case of the input is kept.
    ///
    /// ```swift
    /// pluralize("post")          // "posts"
    /// pluralize("octopus")       // "octopi"
    /// pluralize("sheep")         // "sheep"
    /// pluralize("words")         // "words"
    /// pluralize("CamelOctopus")  // "CamelOctopi"
    /// ```
    public func pluralize(_ word: String) -> String {
        applyRules(inflections.plurals, to: word)
    }

    /// The singular form of `word`, the reverse of ``pluralize(_:)``.
    ///
    /// ```swift
    /// singularize("posts")        // "post"
    /// singularize("octopi")       // "octopus"
    /// singularize("CamelOctopi")  // "CamelOctopus"
    /// ```
    public func singularize(_ word: String) -> String {
        applyRules(inflections.singulars, to: word)
    }

    // MARK: - Case conventions

    /// `term` in UpperCamelCase, or lowerCamelCase when `uppercaseFirstLetter`
    /// is false; `/` becomes `::`, turning paths into namespaces.
    ///
    /// Registered acronyms keep their spelling when they appear as a whole
    /// segment.
    ///
    /// ```swift
    /// camelize("active_model")                               // "ActiveModel"
    /// camelize("active_model", uppercaseFirstLetter: false)  // "activeModel"
    /// camelize("active_model/errors")                        // "ActiveModel::Errors"
    /// // with the acronym "URL":
    /// camelize("my_url_property", uppercaseFirstLetter: false) // "myURLProperty"
    /// ```
    public func camelize(_ term: String, uppercaseFirstLetter: Bool = true) -> String {
        let acronyms = inflections.acronyms
        let string: String
        if uppercaseFirstLetter {
            string =
                InflectorPatterns.leadingLowercaseWord.replacingFirstMatch(in: term) { match in
                    acronyms[match.matched] ?? capitalized(match.matched)
                } ?? term
        } else {
            string =
                acronyms.leadingAcronymOrCharacter.replacingFirstMatch(in: term) { match in
                    match.matched.lowercased()
                } ?? term
        }
        return InflectorPatterns.camelizeSegment.replacingAllMatches(in: string) { match in
            let word = match[group: 2] ?? ""
            let segment = acronyms[word] ?? capitalized(word)
            return match[group: 1] == nil ? segment : "::" + segment
        }
    }

    /// `camelCased` in lowercase snake_case; `::` becomes `/`, turning
    /// namespaces into paths.
    ///
    /// A run of capitals is one word (`"HTMLTidy"` -> `"html_tidy"`), and a
    /// registered acronym is one word (`"IHeartW3C"` -> `"i_heart_w3c"`), so
    /// ``camelize(_:uppercaseFirstLetter:)`` restores names built from
    /// registered acronyms. Without the acronym, `"SSLError"` underscores to
    /// `"ssl_error"` and camelizes back to `"SslError"`.
    ///
    /// ```swift
    /// underscore("ActiveModel")          // "active_model"
    /// underscore("ActiveModel::Errors")  // "active_model/errors"
    /// ```
    public func underscore(_ camelCased: String) -> String {
        guard InflectorPatterns.camelCaseMarker.matches(camelCased) else { return camelCased }
        var word = camelCased.replacingOccurrences(of: "::", with: "/")
        word = inflections.acronyms.embeddedAcronym.replacingAllMatches(in: word) { match in
            (match[group: 1] == nil ? "" : "_") + (match[group: 2] ?? "").lowercased()
        }
        word = InflectorPatterns.wordStart.replacingAllMatches(in: word) { match in
            (match[group: 1] ?? match[group: 2] ?? "") + "_"
        }
        return word.replacingOccurrences(of: "-", with: "_").lowercased()
    }

    /// `word` as a phrase for people: human rules applied, underscores as
    /// spaces, leading spaces and a trailing `_id` dropped, every word
    /// lowercased except acronyms, and the first letter capitalized unless
    /// `capitalize` is false.
    ///
    /// ```swift
    /// humanize("employee_salary")                     // "Employee salary"
    /// humanize("author_id")                           // "Author"
    /// humanize("author_id", capitalize: false)        // "author"
    /// humanize("_id")                                 // "Id"
    /// humanize("author_id", keepIDSuffix: true)      // "Author id"
    /// // with the acronym "SSL":
    /// humanize("ssl_error")                           // "SSL error"
    /// ```
    /// - Parameters:
    ///   - word: Typically a snake_case attribute name.
    ///   - capitalize: Whether to capitalize the first letter.
    ///   - keepIDSuffix: Whether to keep a trailing `_id` (as the word "id").
    public func humanize(_ word: String, capitalize: Bool = true, keepIDSuffix: Bool = false) -> String {
        var result = word
        for rule in inflections.humans.reversed() {
            if let replaced = rule.apply(to: result) {
                result = replaced
                break
            }
        }
        result = removingLeadingWhitespace(result.replacingOccurrences(of: "_", with: " "))
        if !keepIDSuffix, word.hasSuffix("_id"), result.hasSuffix(" id") {
            result.removeLast(3)
        }
        let acronyms = inflections.acronyms
        result = InflectorPatterns.humanWord.replacingAllMatches(in: result) { match in
            let lowercased = match.matched.lowercased()
            return acronyms[lowercased] ?? lowercased
        }
        if capitalize {
            result =
                InflectorPatterns.firstWordCharacter.replacingFirstMatch(in: result) { match in
                    match.matched.uppercased()
                } ?? result
        }
        return result
    }

    /// `word` as a title: underscored, humanized, then every word capitalized
    /// (but not the letter after an apostrophe, as in "David's").
    ///
    /// ```swift
    /// titleize("man from the boondocks")    // "Man From The Boondocks"
    /// titleize("x-men: the last stand")     // "X Men: The Last Stand"
    /// titleize("TheManWithoutAPast")        // "The Man Without A Past"
    /// titleize("raiders_of_the_lost_ark")   // "Raiders Of The Lost Ark"
    /// titleize("string_ending_with_id", keepIDSuffix: true) // "String Ending With Id"
    /// ```
    /// - Parameters:
    ///   - word: Any mix of camel case, snake case and words.
    ///   - keepIDSuffix: Whether to keep a trailing `_id` (as the word "Id").
    public func titleize(_ word: String, keepIDSuffix: Bool = false) -> String {
        InflectorPatterns.titleLetter.replacingAllMatches(
            in: humanize(underscore(word), keepIDSuffix: keepIDSuffix)
        ) { match in
            match.matched.uppercased()
        }
    }

    /// `word` with underscores replaced by dashes.
    ///
    /// ```swift
    /// dasherize("puni_puni")  // "puni-puni"
    /// ```
    public func dasherize(_ word: String) -> String {
        word.replacingOccurrences(of: "_", with: "-")
    }

    // MARK: - Rails naming

    /// The table name Rails gives a model class: underscored, last word pluralized.
    ///
    /// ```swift
    /// tableize("RawScaledScorer")  // "raw_scaled_scorers"
    /// tableize("ham_and_egg")      // "ham_and_eggs"
    /// tableize("fancyCategory")    // "fancy_categories"
    /// ```
    public func tableize(_ className: String) -> String {
        pluralize(underscore(className))
    }

    /// The model class name Rails derives from a table name: any leading
    /// schema name (up to the last `.`) dropped, singularized, camelized.
    ///
    /// ```swift
    /// classify("ham_and_eggs")    // "HamAndEgg"
    /// classify("posts")           // "Post"
    /// classify("schema.foo_bar")  // "FooBar"
    /// ```
    public func classify(_ tableName: String) -> String {
        let table =
            InflectorPatterns.schemaPrefix.replacingFirstMatch(in: tableName) { _ in "" } ?? tableName
        return camelize(singularize(table))
    }

    /// The foreign key Rails uses for a class: its demodulized, underscored
    /// name followed by `_id`, or by `id` when `separateWithUnderscore` is false.
    ///
    /// ```swift
    /// foreignKey("Message")                                 // "message_id"
    /// foreignKey("Message", separateWithUnderscore: false)  // "messageid"
    /// foreignKey("Admin::Post")                             // "post_id"
    /// ```
    public func foreignKey(_ className: String, separateWithUnderscore: Bool = true) -> String {
        underscore(demodulize(className)) + (separateWithUnderscore ? "_id" : "id")
    }

    /// `path` without its module part: everything after the last `::`.
    ///
    /// ```swift
    /// demodulize("ActiveSupport::Inflector::Inflections")  // "Inflections"
    /// demodulize("::Inflections")                          // "Inflections"
    /// demodulize("")                                       // ""
    /// ```
    public func demodulize(_ path: String) -> String {
        guard let separator = path.range(of: "::", options: .backwards) else { return path }
        return String(path[separator.upperBound...])
    }

    // MARK: - Helpers

    private func applyRules(_ rules: [InflectionRule], to word: String) -> String {
        guard !word.isEmpty, !inflections.isUncountable(word) else { return word }
        for rule in rules.reversed() {
            if let inflected = rule.apply(to: word) { return inflected }
        }
        return word
    }
}

/// Ruby's `String#capitalize`: the first character uppercased, the rest lowercased.
private func capitalized(_ word: String) -> String {
    guard let first = word.first else { return word }
    return first.uppercased() + word.dropFirst().lowercased()
}

/// Ruby's `String#lstrip`: `text` without leading NULs and ASCII whitespace.
private func removingLeadingWhitespace(_ text: String) -> String {
    String(text.drop { "\0\t\n\u{0B}\u{0C}\r ".contains($0) })
}

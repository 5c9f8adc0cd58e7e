import RMap
import Testing

/// Rails' own inflector test data run against ``Inflections/english``.
@Suite("Inflector with Rails' English rules")
struct InflectorTests {
    let inflector = Inflector()

    // MARK: - Plural and singular

    @Test("pluralize singular", arguments: RailsInflectorCases.singularToPlural)
    func pluralizeSingular(singular: String, plural: String) {
        #expect(inflector.pluralize(singular) == plural)
        #expect(inflector.pluralize(rubyCapitalize(singular)) == rubyCapitalize(plural))
    }

    @Test("singularize plural", arguments: RailsInflectorCases.singularToPlural)
    func singularizePlural(singular: String, plural: String) {
        #expect(inflector.singularize(plural) == singular)
        #expect(inflector.singularize(rubyCapitalize(plural)) == rubyCapitalize(singular))
    }

    @Test("pluralize plural keeps it", arguments: RailsInflectorCases.singularToPlural)
    func pluralizePlural(singular: String, plural: String) {
        #expect(inflector.pluralize(plural) == plural)
        #expect(inflector.pluralize(rubyCapitalize(plural)) == rubyCapitalize(plural))
    }

    @Test("singularize singular keeps it", arguments: RailsInflectorCases.singularToPlural)
    func singularizeSingular(singular: String, plural: String) {
        #expect(inflector.singularize(singular) == singular)
        #expect(inflector.singularize(rubyCapitalize(singular)) == rubyCapitalize(singular))
    }

    @Test(
        "Rails 7's frozen rules, mistakes included",
        arguments: [
            ("cactus", "cactus", true), ("canvas", "canvas", true), ("safe", "saves", true),
            ("canvases", "canvase", false), ("curves", "curf", false), ("drives", "drife", false),
            ("caves", "cafe", false),
        ])
    func frozenRules(word: String, inflected: String, pluralizing: Bool) {
        let result = pluralizing ? inflector.pluralize(word) : inflector.singularize(word)
        #expect(result == inflected)
    }

    @Test func pluralizeEmptyStringAndPlurals() {
        #expect(inflector.pluralize("") == "")
        #expect(inflector.singularize("") == "")
        #expect(inflector.pluralize("plurals") == "plurals")
        #expect(inflector.pluralize("Plurals") == "Plurals")
    }

    @Test("uncountable words stay as they are", arguments: RailsInflectorCases.englishUncountables)
    func uncountable(word: String) {
        #expect(inflector.pluralize(word) == word)
        #expect(inflector.singularize(word) == word)
        #expect(inflector.pluralize(word.uppercased()) == word.uppercased())
    }

    @Test(
        "uncountables match the last word only",
        arguments: [
            ("sea fish", "sea fish"), ("Sea Fish", "Sea Fish"), ("big-sheep", "big-sheep"),
            ("sea_fish", "sea_fishes"), ("goldfish", "goldfishes"), ("fisher", "fishers"),
            ("rice_cooker", "rice_cookers"), ("price", "prices"),
        ])
    func uncountableLastWord(term: String, plural: String) {
        #expect(inflector.pluralize(term) == plural)
    }

    @Test func uncountableWordIsNotGreedy() {
        var rules = Inflections.english
        rules.uncountable(["ors"])
        let inflector = Inflector(rules)
        #expect(inflector.singularize("ors") == "ors")
        #expect(inflector.pluralize("ors") == "ors")
        #expect(inflector.singularize("sponsor") == "sponsor")
        #expect(inflector.pluralize("sponsor") == "sponsors")
        #expect(inflector.singularize(inflector.pluralize("sponsor")) == "sponsor")
    }

    @Test("irregulars inflect both ways", arguments: RailsInflectorCases.irregularities)
    func irregular(singular: String, plural: String) {
        var rules = Inflections.english
        rules.irregular(singular, plural)
        let inflector = Inflector(rules)
        #expect(inflector.singularize(plural) == singular)
        #expect(inflector.pluralize(singular) == plural)
        #expect(inflector.pluralize(plural) == plural)
        #expect(inflector.singularize(singular) == singular)
        #expect(inflector.pluralize(rubyCapitalize(singular)) == rubyCapitalize(plural))
        #expect(inflector.singularize(rubyCapitalize(plural)) == rubyCapitalize(singular))
    }

    @Test func irregularWithDifferentFirstLettersKeepsCase() {
        var rules = Inflections.english
        rules.irregular("cow", "kine")
        let inflector = Inflector(rules)
        #expect(inflector.pluralize("Cow") == "Kine")
        #expect(inflector.pluralize("brown_cow") == "brown_kine")
        #expect(inflector.singularize("BrownKine") == "BrownCow")
        #expect(inflector.singularize("kINE") == "cow")
    }

    // MARK: - Case conventions

    @Test("camelize", arguments: RailsInflectorCases.camelToUnderscore)
    func camelize(camel: String, underscored: String) {
        #expect(inflector.camelize(underscored) == camel)
    }

    @Test("underscore", arguments: RailsInflectorCases.camelToUnderscore)
    func underscore(camel: String, underscored: String) {
        #expect(inflector.underscore(camel) == underscored)
        #expect(inflector.underscore(underscored) == underscored)
    }

    @Test("underscore without reverse", arguments: RailsInflectorCases.camelToUnderscoreWithoutReverse)
    func underscoreWithoutReverse(camel: String, underscored: String) {
        #expect(inflector.underscore(camel) == underscored)
    }

    @Test("camelize with module", arguments: RailsInflectorCases.camelWithModuleToUnderscoreWithSlash)
    func camelizeWithModule(camel: String, underscored: String) {
        #expect(inflector.camelize(underscored) == camel)
    }

    @Test("underscore with slashes", arguments: RailsInflectorCases.camelWithModuleToUnderscoreWithSlash)
    func underscoreWithSlashes(camel: String, underscored: String) {
        #expect(inflector.underscore(camel) == underscored)
    }

    @Test("camelize to lower camel", arguments: RailsInflectorCases.underscoreToLowerCamel)
    func camelizeLower(underscored: String, lowerCamel: String) {
        #expect(inflector.camelize(underscored, uppercaseFirstLetter: false) == lowerCamel)
    }

    @Test("camelize sets the case of the first letter", arguments: ["Capital", "capital"])
    func camelizeFirstLetter(input: String) {
        #expect(inflector.camelize(input) == "Capital")
        #expect(inflector.camelize(input, uppercaseFirstLetter: false) == "capital")
    }

    @Test func camelizeEdgeCases() {
        #expect(inflector.camelize("Camel_Case") == "CamelCase")
        #expect(inflector.camelize("active_model/errors", uppercaseFirstLetter: false) == "activeModel::Errors")
        #expect(inflector.camelize("") == "")
        #expect(inflector.camelize(inflector.underscore("SSLError")) == "SslError")
    }

    @Test("dasherize", arguments: RailsInflectorCases.underscoresToDashes)
    func dasherize(underscored: String, dasherized: String) {
        #expect(inflector.dasherize(underscored) == dasherized)
        #expect(inflector.underscore(dasherized) == underscored)
    }

    @Test("humanize", arguments: RailsInflectorCases.underscoreToHuman)
    func humanize(underscored: String, human: String) {
        #expect(inflector.humanize(underscored) == human)
    }

    @Test("humanize keeping the id suffix", arguments: RailsInflectorCases.underscoreToHumanWithKeepIDSuffix)
    func humanizeKeepingIDSuffix(underscored: String, human: String) {
        #expect(inflector.humanize(underscored, keepIDSuffix: true) == human)
    }

    @Test("humanize without capitalizing", arguments: RailsInflectorCases.underscoreToHumanWithoutCapitalize)
    func humanizeWithoutCapitalize(underscored: String, human: String) {
        #expect(inflector.humanize(underscored, capitalize: false) == human)
    }

    @Test func humanizeInternationalCharacters() {
        #expect(inflector.humanize("áÉÍÓÚ") == "Áéíóú")
        #expect(inflector.humanize("аБВГДЕ") == "Абвгде")
    }

    @Test("titleize", arguments: RailsInflectorCases.mixtureToTitleCase)
    func titleize(before: String, title: String) {
        #expect(inflector.titleize(before) == title)
    }

    @Test("titleize keeping the id suffix", arguments: RailsInflectorCases.mixtureToTitleCaseWithKeepIDSuffix)
    func titleizeKeepingIDSuffix(before: String, title: String) {
        #expect(inflector.titleize(before, keepIDSuffix: true) == title)
    }

    // MARK: - Rails naming

    @Test("tableize", arguments: RailsInflectorCases.classNameToTableName)
    func tableize(className: String, tableName: String) {
        #expect(inflector.tableize(className) == tableName)
    }

    @Test("classify", arguments: RailsInflectorCases.classNameToTableName)
    func classify(className: String, tableName: String) {
        #expect(inflector.classify(tableName) == className)
        #expect(inflector.classify("table_prefix." + tableName) == className)
    }

    @Test func classifyWithLeadingSchemaName() {
        #expect(inflector.classify("schema.foo_bar") == "FooBar")
        #expect(inflector.classify("foo_bars") == "FooBar")
        #expect(inflector.classify("ham_and_eggs") == "HamAndEgg")
    }

    @Test("foreign key with underscore", arguments: RailsInflectorCases.classNameToForeignKeyWithUnderscore)
    func foreignKey(className: String, key: String) {
        #expect(inflector.foreignKey(className) == key)
    }

    @Test("foreign key without underscore", arguments: RailsInflectorCases.classNameToForeignKeyWithoutUnderscore)
    func foreignKeyWithoutUnderscore(className: String, key: String) {
        #expect(inflector.foreignKey(className, separateWithUnderscore: false) == key)
    }

    @Test func examplesFromTheDocumentation() {
        #expect(inflector.titleize("man from the boondocks") == "Man From The Boondocks")
        #expect(inflector.titleize("x-men: the last stand") == "X Men: The Last Stand")
        #expect(inflector.titleize("TheManWithoutAPast") == "The Man Without A Past")
        #expect(inflector.titleize("raiders_of_the_lost_ark") == "Raiders Of The Lost Ark")
        #expect(inflector.titleize("string_ending_with_id", keepIDSuffix: true) == "String Ending With Id")
        #expect(inflector.tableize("RawScaledScorer") == "raw_scaled_scorers")
        #expect(inflector.tableize("ham_and_egg") == "ham_and_eggs")
        #expect(inflector.tableize("fancyCategory") == "fancy_categories")
        #expect(inflector.pluralize("CamelOctopus") == "CamelOctopi")
        #expect(inflector.singularize("CamelOctopi") == "CamelOctopus")
        #expect(inflector.humanize("author_id", keepIDSuffix: true) == "Author id")
        #expect(inflector.foreignKey("Admin::Post") == "post_id")
        #expect(inflector.underscore("ActiveModel::Errors") == "active_model/errors")
        #expect(inflector.dasherize("puni_puni") == "puni-puni")
    }

    @Test(
        "demodulize",
        arguments: [
            ("MyApplication::Billing::Account", "Account"), ("Account", "Account"), ("::Account", "Account"),
            ("", ""),
        ])
    func demodulize(path: String, name: String) {
        #expect(inflector.demodulize(path) == name)
    }
}

/// Ruby's `String#capitalize`, which Rails' tests use to derive capitalized cases.
func rubyCapitalize(_ word: String) -> String {
    guard let first = word.first else { return word }
    return first.uppercased() + word.dropFirst().lowercased()
}

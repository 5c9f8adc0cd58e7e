import RMap
import Testing

/// Rules added through ``Inflections``' mutating API, as a mapping file's
/// `inflections:` section adds them.
@Suite("Custom inflections")
struct CustomInflectionsTests {
    private func inflector(_ configure: (inout Inflections) -> Void) -> Inflector {
        var rules = Inflections.english
        configure(&rules)
        return Inflector(rules)
    }

    @Test func irregularOverridesBuiltInIrregular() {
        let inflector = inflector { $0.irregular("person", "persons") }
        #expect(inflector.pluralize("person") == "persons")
        #expect(inflector.pluralize("Person") == "Persons")
        #expect(inflector.singularize("persons") == "person")
        #expect(inflector.pluralize("salesperson") == "salespersons")
        #expect(Inflector().pluralize("person") == "people")
    }

    @Test(arguments: [("cactus", "cacti"), ("Cactus", "Cacti"), ("big_cactus", "big_cacti"), ("BigCactus", "BigCacti")])
    func cactusCacti(singular: String, plural: String) {
        let inflector = inflector { $0.irregular("cactus", "cacti") }
        #expect(inflector.pluralize(singular) == plural)
        #expect(inflector.singularize(plural) == singular)
        #expect(inflector.pluralize(plural) == plural)
        #expect(inflector.singularize(singular) == singular)
        #expect(Inflector().pluralize(singular) == singular)
    }

    @Test func uncountableEquipmentAndMetadata() {
        #expect(Inflector().singularize("metadata") == "metadatum")
        let inflector = inflector { $0.uncountable(["equipment", "Metadata"]) }
        for word in ["metadata", "Metadata", "METADATA", "user metadata", "equipment"] {
            #expect(inflector.singularize(word) == word)
            #expect(inflector.pluralize(word) == word)
        }
        // "_" joins words, so the uncountable is not the last word here.
        #expect(inflector.singularize("user_metadata") == "user_metadatum")
        #expect(inflector.tableize("Metadata") == "metadata")
        #expect(inflector.classify("metadata") == "Metadata")
    }

    @Test func regexRulesWithBackslashAndDollarReferences() {
        let inflector = inflector {
            $0.plural("(alumn)us$", "\\1i")
            $0.singular("(alumn)i$", "$1us")
        }
        #expect(inflector.pluralize("alumnus") == "alumni")
        #expect(inflector.pluralize("Alumnus") == "Alumni")
        #expect(inflector.singularize("ALUMNI") == "ALUMNus")
        #expect(inflector.singularize("alumni") == "alumnus")
    }

    @Test func laterRulesWin() {
        let inflector = inflector {
            $0.plural("(alumn)us$", "\\1i")
            $0.plural("(alumn)us$", "\\1uses")
        }
        #expect(inflector.pluralize("alumnus") == "alumnuses")
    }

    @Test func caseSensitiveRuleWithInlineFlag() {
        let inflector = inflector { $0.plural("(?-i)^(ox)$", "\\1es") }
        #expect(inflector.pluralize("ox") == "oxes")
        #expect(inflector.pluralize("Ox") == "Oxen")
    }

    @Test func singularRuleRemovesUncountable() {
        let inflector = inflector { $0.singular("series", "serie") }
        #expect(Inflector().singularize("series") == "series")
        #expect(inflector.singularize("series") == "serie")
    }

    @Test func irregularRemovesUncountable() {
        let inflector = inflector { $0.irregular("sheep", "sheeps") }
        #expect(Inflector().pluralize("sheep") == "sheep")
        #expect(inflector.pluralize("sheep") == "sheeps")
        #expect(inflector.singularize("sheeps") == "sheep")
    }

    @Test func humanRules() {
        let inflector = inflector {
            $0.human("_cnt$", "\\1_count")
            $0.human("^prefx_", "\\1")
        }
        #expect(inflector.humanize("jargon_cnt") == "Jargon count")
        #expect(inflector.humanize("prefx_request") == "Request")
        #expect(inflector.titleize("jargon_cnt") == "Jargon Count")
    }

    @Test func humanRuleMatchingExactCase() {
        let inflector = inflector { $0.human("(?-i)col_rpted_bugs", "Reported bugs") }
        #expect(inflector.humanize("col_rpted_bugs") == "Reported bugs")
        #expect(inflector.humanize("COL_rpted_bugs") == "Col rpted bugs")
        let caseless = self.inflector { $0.human("col_rpted_bugs", "Reported bugs") }
        #expect(caseless.humanize("COL_rpted_bugs") == "Reported bugs")
    }

    @Test func replacementSyntax() {
        let inflector = inflector { $0.plural("^(ab)(cd)$", "\\2\\1 [\\0|\\&] \\\\ \\$1 \\x $9 $") }
        #expect(inflector.pluralize("abcd") == "cdab [abcd|abcd] \\ $1 \\x  $")
    }

    @Test func invalidPatternMatchesLiterally() {
        let inflector = inflector { $0.plural("(unclosed", "closed") }
        #expect(inflector.pluralize("an (UNCLOSED") == "an closed")
        #expect(inflector.pluralize("unclosed") == "uncloseds")
    }

    @Test func emptyRuleSetLeavesWordsAlone() {
        let inflector = Inflector(Inflections())
        #expect(inflector.pluralize("post") == "post")
        #expect(inflector.singularize("posts") == "posts")
        #expect(inflector.tableize("BlogPost") == "blog_post")
        #expect(inflector.camelize("blog_post") == "BlogPost")
    }

    @Test func rulesAreValues() {
        var rules = Inflections.english
        let original = rules
        #expect(rules == .english)
        rules.irregular("cactus", "cacti")
        #expect(rules != original)
        #expect(original == .english)
        #expect(Inflector(rules).inflections == rules)
        #expect(Set([rules, original, .english]).count == 2)

        var again = Inflections.english
        again.irregular("cactus", "cacti")
        #expect(again == rules)
        #expect(again.hashValue == rules.hashValue)

        var acronyms = Inflections()
        acronyms.acronym("API")
        #expect(acronyms != Inflections())
    }

    @Test func inflectorIsUsableAcrossTasks() async {
        let inflector = inflector { $0.acronym("API") }
        let results = await withTaskGroup(of: String.self) { group in
            for _ in 0..<8 { group.addTask { inflector.camelize("api_client") } }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: "APIClient", count: 8))
    }
}

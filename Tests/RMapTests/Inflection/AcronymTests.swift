import RMap
import Testing

/// Acronym handling, from `test_acronyms` and its neighbours in Rails'
/// `inflector_test.rb`.
@Suite("Inflector acronyms")
struct AcronymTests {
    static func inflector(_ acronyms: [String]) -> Inflector {
        var rules = Inflections.english
        for acronym in acronyms { rules.acronym(acronym) }
        return Inflector(rules)
    }

    let inflector = AcronymTests.inflector(AcronymCase.acronyms)

    @Test("acronyms through camelize, underscore, humanize and titleize", arguments: AcronymCase.all)
    func acronyms(row: AcronymCase) {
        #expect(inflector.camelize(row.under) == row.camel)
        #expect(inflector.camelize(row.camel) == row.camel)
        #expect(inflector.underscore(row.under) == row.under)
        #expect(inflector.underscore(row.camel) == row.under)
        #expect(inflector.titleize(row.under) == row.title)
        #expect(inflector.titleize(row.camel) == row.title)
        #expect(inflector.humanize(row.under) == row.human)
    }

    @Test func acronymOverride() {
        let inflector = Self.inflector(["API", "LegacyApi"])
        #expect(inflector.camelize("legacyapi") == "LegacyApi")
        #expect(inflector.camelize("legacy_api") == "LegacyAPI")
        #expect(inflector.camelize("some_legacyapi") == "SomeLegacyApi")
        #expect(inflector.camelize("nonlegacyapi") == "Nonlegacyapi")
    }

    @Test(arguments: ["html_api", "htmlAPI", "HTMLAPI"])
    func camelizeLowerWithAcronyms(input: String) {
        let inflector = Self.inflector(["API", "HTML"])
        #expect(inflector.camelize(input, uppercaseFirstLetter: false) == "htmlAPI")
    }

    @Test func underscoreAcronymSequence() {
        let inflector = Self.inflector(["API", "JSON", "HTML"])
        #expect(inflector.underscore("JSONHTMLAPI") == "json_html_api")
    }

    @Test(
        arguments: [
            "LAX ROUNDTRIP TO SFO", "lax roundtrip to sfo", "Lax Roundtrip To Sfo",
        ])
    func humanizeWithAcronyms(input: String) {
        let inflector = Self.inflector(["LAX", "SFO"])
        #expect(inflector.humanize(input) == "LAX roundtrip to SFO")
        #expect(inflector.humanize(input, capitalize: false) == "LAX roundtrip to SFO")
    }

    @Test func acronymMustBeADelimitedUnit() {
        let http = Self.inflector(["HTTP"])
        #expect(http.underscore("HTTPS") == "http_s")
        #expect(http.camelize("https") == "Https")
        #expect(http.camelize("my_http_delimited") == "MyHTTPDelimited")
        let https = Self.inflector(["HTTPS"])
        #expect(https.underscore("HTTPS") == "https")
        #expect(https.camelize("https") == "HTTPS")
        // Rails 7 tries acronyms in the order they were registered.
        let both = Self.inflector(["HTTP", "HTTPS"])
        #expect(both.underscore("HTTPS") == "http_s")
        #expect(both.camelize("https") == "HTTPS")
        #expect(Self.inflector(["HTTPS", "HTTP"]).underscore("HTTPS") == "https")
        #expect(Inflector().underscore("HTTPS") == "https")
    }

    @Test func acronymsFromTheInflectionsDocumentation() {
        let inflector = Self.inflector(["HTML", "RESTful", "McDonald"])
        #expect(inflector.titleize("html") == "HTML")
        #expect(inflector.underscore("MyHTML") == "my_html")
        #expect(inflector.underscore("RESTfulController") == "restful_controller")
        #expect(inflector.titleize("RESTfulController") == "RESTful Controller")
        #expect(inflector.underscore("McDonald") == "mcdonald")
        #expect(inflector.camelize("mcdonald") == "McDonald")
    }

    @Test func pluralizedAcronymNeedsItsOwnEntry() {
        #expect(Self.inflector(["API"]).camelize(Inflector().pluralize("api")) == "Apis")
        #expect(Self.inflector(["API", "APIs"]).camelize(Inflector().pluralize("api")) == "APIs")
    }

    @Test(
        "underscore and camelize round-trip with acronyms",
        arguments: [
            "HTTPResponse", "APIController", "IHeartW3C", "RESTfulController", "MyURLProperty",
            "Admin::HTTPClient", "W3CValidator", "URLForAPI", "SSLError",
        ])
    func roundTrip(name: String) {
        let inflector = Self.inflector(["HTTP", "API", "W3C", "RESTful", "URL", "SSL"])
        #expect(inflector.camelize(inflector.underscore(name)) == name)
    }

    @Test func briefExamples() {
        let inflector = Self.inflector(["HTTP", "API", "W3C", "RESTful", "URL"])
        #expect(inflector.underscore("HTTPResponse") == "http_response")
        #expect(inflector.camelize("http_response") == "HTTPResponse")
        #expect(inflector.underscore("APIController") == "api_controller")
        #expect(inflector.underscore("IHeartW3C") == "i_heart_w3c")
        #expect(inflector.camelize("my_url_property", uppercaseFirstLetter: false) == "myURLProperty")
        #expect(inflector.underscore("myURLProperty") == "my_url_property")
    }
}

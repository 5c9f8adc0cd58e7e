import Testing

/// Test data from ActiveSupport's `activesupport/test/inflector_test_cases.rb`
/// and `inflector_test.rb` (Rails 7), as `(input, expected)` pairs.
enum RailsInflectorCases {
    /// `SingularToPlural`: pluralize maps the first to the second, singularize back.
    /// (Rails 8 added "canvas"; Rails 7's rules leave it as it is.)
    static let singularToPlural: [(String, String)] = [
        ("search", "searches"), ("switch", "switches"), ("fix", "fixes"), ("box", "boxes"),
        ("process", "processes"), ("address", "addresses"), ("case", "cases"), ("stack", "stacks"),
        ("wish", "wishes"), ("fish", "fish"), ("jeans", "jeans"), ("funky jeans", "funky jeans"),
        ("my money", "my money"),
        ("category", "categories"), ("query", "queries"), ("ability", "abilities"),
        ("agency", "agencies"), ("movie", "movies"),
        ("archive", "archives"),
        ("index", "indices"),
        ("wife", "wives"), ("safe", "saves"), ("half", "halves"),
        ("move", "moves"),
        ("salesperson", "salespeople"), ("person", "people"),
        ("spokesman", "spokesmen"), ("man", "men"), ("woman", "women"),
        ("basis", "bases"), ("diagnosis", "diagnoses"), ("diagnosis_a", "diagnosis_as"),
        ("datum", "data"), ("medium", "media"), ("stadium", "stadia"), ("analysis", "analyses"),
        ("my_analysis", "my_analyses"),
        ("node_child", "node_children"), ("child", "children"),
        ("experience", "experiences"), ("day", "days"),
        ("comment", "comments"), ("foobar", "foobars"), ("newsletter", "newsletters"),
        ("old_news", "old_news"), ("news", "news"),
        ("series", "series"), ("miniseries", "miniseries"), ("species", "species"),
        ("quiz", "quizzes"),
        ("perspective", "perspectives"),
        ("ox", "oxen"), ("photo", "photos"), ("buffalo", "buffaloes"), ("tomato", "tomatoes"),
        ("dwarf", "dwarves"), ("elf", "elves"), ("information", "information"),
        ("equipment", "equipment"), ("bus", "buses"), ("status", "statuses"),
        ("status_code", "status_codes"), ("mouse", "mice"),
        ("louse", "lice"), ("house", "houses"), ("octopus", "octopi"), ("virus", "viri"),
        ("alias", "aliases"), ("portfolio", "portfolios"),
        ("vertex", "vertices"), ("matrix", "matrices"), ("matrix_fu", "matrix_fus"),
        ("axis", "axes"), ("taxi", "taxis"), ("testis", "testes"), ("crisis", "crises"),
        ("rice", "rice"), ("shoe", "shoes"),
        ("horse", "horses"), ("prize", "prizes"), ("edge", "edges"),
        ("database", "databases"),
        ("|ice", "|ices"), ("|ouse", "|ouses"), ("slice", "slices"), ("police", "police"),
    ]

    /// `CamelToUnderscore`: underscore maps the first to the second, camelize back.
    static let camelToUnderscore: [(String, String)] = [
        ("Product", "product"),
        ("SpecialGuest", "special_guest"),
        ("ApplicationController", "application_controller"),
        ("Area51Controller", "area51_controller"),
    ]

    /// `UnderscoreToLowerCamel`: camelize with a lowercase first letter.
    static let underscoreToLowerCamel: [(String, String)] = [
        ("product", "product"),
        ("special_guest", "specialGuest"),
        ("application_controller", "applicationController"),
        ("area51_controller", "area51Controller"),
    ]

    /// `CamelToUnderscoreWithoutReverse`: underscore only (camelize does not restore them).
    static let camelToUnderscoreWithoutReverse: [(String, String)] = [
        ("HTMLTidy", "html_tidy"),
        ("HTMLTidyGenerator", "html_tidy_generator"),
        ("FreeBSD", "free_bsd"),
        ("HTML", "html"),
        ("ForceXMLController", "force_xml_controller"),
    ]

    /// `CamelWithModuleToUnderscoreWithSlash`: namespaces and paths, both ways.
    static let camelWithModuleToUnderscoreWithSlash: [(String, String)] = [
        ("Admin::Product", "admin/product"),
        ("Users::Commission::Department", "users/commission/department"),
        ("UsersSection::CommissionDepartment", "users_section/commission_department"),
    ]

    /// `ClassNameToForeignKeyWithUnderscore`.
    static let classNameToForeignKeyWithUnderscore: [(String, String)] = [
        ("Person", "person_id"),
        ("MyApplication::Billing::Account", "account_id"),
    ]

    /// `ClassNameToForeignKeyWithoutUnderscore`.
    static let classNameToForeignKeyWithoutUnderscore: [(String, String)] = [
        ("Person", "personid"),
        ("MyApplication::Billing::Account", "accountid"),
    ]

    /// `ClassNameToTableName`: tableize maps the first to the second, classify back.
    static let classNameToTableName: [(String, String)] = [
        ("PrimarySpokesman", "primary_spokesmen"),
        ("NodeChild", "node_children"),
    ]

    /// `UnderscoreToHuman`.
    static let underscoreToHuman: [(String, String)] = [
        ("employee_salary", "Employee salary"),
        ("employee_id", "Employee"),
        ("underground", "Underground"),
        ("_id", "Id"),
        ("_external_id", "External"),
    ]

    /// `UnderscoreToHumanWithKeepIdSuffix`.
    static let underscoreToHumanWithKeepIDSuffix: [(String, String)] = [
        ("this_is_a_string_ending_with_id", "This is a string ending with id"),
        ("employee_id", "Employee id"),
        ("employee_id_something_else", "Employee id something else"),
        ("underground", "Underground"),
        ("_id", "Id"),
        ("_external_id", "External id"),
    ]

    /// `UnderscoreToHumanWithoutCapitalize`.
    static let underscoreToHumanWithoutCapitalize: [(String, String)] = [
        ("employee_salary", "employee salary"),
        ("employee_id", "employee"),
        ("underground", "underground"),
    ]

    /// `MixtureToTitleCase`.
    static let mixtureToTitleCase: [(String, String)] = [
        ("active_record", "Active Record"),
        ("ActiveRecord", "Active Record"),
        ("action web service", "Action Web Service"),
        ("Action Web Service", "Action Web Service"),
        ("Action web service", "Action Web Service"),
        ("actionwebservice", "Actionwebservice"),
        ("Actionwebservice", "Actionwebservice"),
        ("david's code", "David's Code"),
        ("David's code", "David's Code"),
        ("david's Code", "David's Code"),
        ("sgt. pepper's", "Sgt. Pepper's"),
        ("i've just seen a face", "I've Just Seen A Face"),
        ("maybe you'll be there", "Maybe You'll Be There"),
        ("¿por qué?", "¿Por Qué?"),
        ("Fred’s", "Fred’s"),
        ("Fred`s", "Fred`s"),
        ("this was 'fake news'", "This Was 'Fake News'"),
        ("confirmation num", "Confirmation Num"),
    ]

    /// `MixtureToTitleCaseWithKeepIdSuffix`.
    static let mixtureToTitleCaseWithKeepIDSuffix: [(String, String)] = [
        ("this_is_a_string_ending_with_id", "This Is A String Ending With Id"),
        ("EmployeeId", "Employee Id"),
        ("Author Id", "Author Id"),
    ]

    /// `UnderscoresToDashes`.
    static let underscoresToDashes: [(String, String)] = [
        ("street", "street"),
        ("street_address", "street-address"),
        ("person_street_address", "person-street-address"),
    ]

    /// `Irregularities`: each added with `irregular` on top of the English rules.
    static let irregularities: [(String, String)] = [
        ("person", "people"),
        ("man", "men"),
        ("child", "children"),
        ("sex", "sexes"),
        ("move", "moves"),
        ("cow", "kine"),
        ("zombie", "zombies"),
        ("genus", "genera"),
    ]

    /// The uncountable words of Rails' English rules.
    static let englishUncountables = [
        "equipment", "information", "rice", "money", "species", "series", "fish", "sheep", "jeans", "police",
    ]
}

/// One row of `test_acronyms` in `inflector_test.rb`: a camelized name and its
/// underscored, humanized and titleized forms, with the acronyms API, HTML,
/// HTTP, RESTful, W3C, PhD, RoR and SSL registered.
struct AcronymCase: Sendable, CustomTestStringConvertible {
    let camel: String
    let under: String
    let human: String
    let title: String

    var testDescription: String { camel }

    static let acronyms = ["API", "HTML", "HTTP", "RESTful", "W3C", "PhD", "RoR", "SSL"]

    static let all: [AcronymCase] = [
        .init(camel: "API", under: "api", human: "API", title: "API"),
        .init(camel: "APIController", under: "api_controller", human: "API controller", title: "API Controller"),
        .init(camel: "Nokogiri::HTML", under: "nokogiri/html", human: "Nokogiri/HTML", title: "Nokogiri/HTML"),
        .init(camel: "HTTPAPI", under: "http_api", human: "HTTP API", title: "HTTP API"),
        .init(camel: "HTTP::Get", under: "http/get", human: "HTTP/get", title: "HTTP/Get"),
        .init(camel: "SSLError", under: "ssl_error", human: "SSL error", title: "SSL Error"),
        .init(camel: "RESTful", under: "restful", human: "RESTful", title: "RESTful"),
        .init(
            camel: "RESTfulController", under: "restful_controller", human: "RESTful controller",
            title: "RESTful Controller"),
        .init(camel: "Nested::RESTful", under: "nested/restful", human: "Nested/RESTful", title: "Nested/RESTful"),
        .init(camel: "IHeartW3C", under: "i_heart_w3c", human: "I heart W3C", title: "I Heart W3C"),
        .init(camel: "PhDRequired", under: "phd_required", human: "PhD required", title: "PhD Required"),
        .init(camel: "IRoRU", under: "i_ror_u", human: "I RoR u", title: "I RoR U"),
        .init(
            camel: "RESTfulHTTPAPI", under: "restful_http_api", human: "RESTful HTTP API",
            title: "RESTful HTTP API"),
        .init(camel: "HTTP::RESTful", under: "http/restful", human: "HTTP/RESTful", title: "HTTP/RESTful"),
        .init(
            camel: "HTTP::RESTfulAPI", under: "http/restful_api", human: "HTTP/RESTful API",
            title: "HTTP/RESTful API"),
        .init(camel: "APIRESTful", under: "api_restful", human: "API RESTful", title: "API RESTful"),
        // misdirection
        .init(camel: "Capistrano", under: "capistrano", human: "Capistrano", title: "Capistrano"),
        .init(camel: "CapiController", under: "capi_controller", human: "Capi controller", title: "Capi Controller"),
        .init(camel: "HttpsApis", under: "https_apis", human: "Https apis", title: "Https Apis"),
        .init(camel: "Html5", under: "html5", human: "Html5", title: "Html5"),
        .init(camel: "Restfully", under: "restfully", human: "Restfully", title: "Restfully"),
        .init(camel: "RoRails", under: "ro_rails", human: "Ro rails", title: "Ro Rails"),
    ]
}

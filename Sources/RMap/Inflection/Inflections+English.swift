extension Inflections {
    /// Rails' default English rules (ActiveSupport's `inflections.rb`, frozen
    /// since Rails 4 and unchanged through Rails 7): 21 plural and 27 singular
    /// rules, the irregulars person/people, man/men, child/children, sex/sexes,
    /// move/moves and zombie/zombies, and the uncountables equipment,
    /// information, rice, money, species, series, fish, sheep, jeans and police.
    /// No acronyms and no human rules.
    ///
    /// Rails' rule set is deliberately incomplete (`"cactus"` pluralizes to
    /// `"cactus"`, as every word ending in "s" does); add your own rules to a copy.
    public static let english: Inflections = {
        var rules = Inflections()

        rules.plural("$", "s")
        rules.plural("s$", "s")
        rules.plural("^(ax|test)is$", "\\1es")
        rules.plural("(octop|vir)us$", "\\1i")
        rules.plural("(octop|vir)i$", "\\1i")
        rules.plural("(alias|status)$", "\\1es")
        rules.plural("(bu)s$", "\\1ses")
        rules.plural("(buffal|tomat)o$", "\\1oes")
        rules.plural("([ti])um$", "\\1a")
        rules.plural("([ti])a$", "\\1a")
        rules.plural("sis$", "ses")
        rules.plural("(?:([^f])fe|([lr])f)$", "\\1\\2ves")
        rules.plural("(hive)$", "\\1s")
        rules.plural("([^aeiouy]|qu)y$", "\\1ies")
        rules.plural("(x|ch|ss|sh)$", "\\1es")
        rules.plural("(matr|vert|ind)(?:ix|ex)$", "\\1ices")
        rules.plural("^(m|l)ouse$", "\\1ice")
        rules.plural("^(m|l)ice$", "\\1ice")
        rules.plural("^(ox)$", "\\1en")
        rules.plural("^(oxen)$", "\\1")
        rules.plural("(quiz)$", "\\1zes")

        rules.singular("s$", "")
        rules.singular("(ss)$", "\\1")
        rules.singular("(n)ews$", "\\1ews")
        rules.singular("([ti])a$", "\\1um")
        rules.singular("((a)naly|(b)a|(d)iagno|(p)arenthe|(p)rogno|(s)ynop|(t)he)(sis|ses)$", "\\1sis")
        rules.singular("(^analy)(sis|ses)$", "\\1sis")
        rules.singular("([^f])ves$", "\\1fe")
        rules.singular("(hive)s$", "\\1")
        rules.singular("(tive)s$", "\\1")
        rules.singular("([lr])ves$", "\\1f")
        rules.singular("([^aeiouy]|qu)ies$", "\\1y")
        rules.singular("(s)eries$", "\\1eries")
        rules.singular("(m)ovies$", "\\1ovie")
        rules.singular("(x|ch|ss|sh)es$", "\\1")
        rules.singular("^(m|l)ice$", "\\1ouse")
        rules.singular("(bus)(es)?$", "\\1")
        rules.singular("(o)es$", "\\1")
        rules.singular("(shoe)s$", "\\1")
        rules.singular("(cris|test)(is|es)$", "\\1is")
        rules.singular("^(a)x[ie]s$", "\\1xis")
        rules.singular("(octop|vir)(us|i)$", "\\1us")
        rules.singular("(alias|status)(es)?$", "\\1")
        rules.singular("^(ox)en", "\\1")
        rules.singular("(vert|ind)ices$", "\\1ex")
        rules.singular("(matr)ices$", "\\1ix")
        rules.singular("(quiz)zes$", "\\1")
        rules.singular("(database)s$", "\\1")

        rules.irregular("person", "people")
        rules.irregular("man", "men")
        rules.irregular("child", "children")
        rules.irregular("sex", "sexes")
        rules.irregular("move", "moves")
        rules.irregular("zombie", "zombies")

        rules.uncountable([
            "equipment", "information", "rice", "money", "species", "series", "fish", "sheep", "jeans", "police",
        ])
        return rules
    }()
}

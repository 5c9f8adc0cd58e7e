import RMap
import Testing

@Suite("YAML parser")
struct YAMLParserTests {
    private func parse(_ text: String) throws -> YAMLNode {
        try #require(try YAMLParser.parse(text, file: "t.yml"))
    }

    private func error(_ text: String) -> String? {
        do {
            _ = try YAMLParser.parse(text, file: "t.yml")
            return nil
        } catch {
            return error.description
        }
    }

    // MARK: - Scalars

    @Test(arguments: [
        ("1", YAMLScalar.Style.plain, 1 as Int?),
        ("\"1\"", .doubleQuoted, nil),
        ("'1'", .singleQuoted, nil),
        ("-42", .plain, -42),
        ("1.5", .plain, nil),
    ])
    func scalarStyleDecidesNumbers(source: String, style: YAMLScalar.Style, int: Int?) throws {
        let scalar = try #require(try parse("v: \(source)\n")["v"]?.scalar)
        #expect(scalar.text == source.trimmingCharacters(in: ["\"", "'"]))
        #expect(scalar.style == style)
        #expect(scalar.int == int)
    }

    @Test func quotedWordsStayStrings() throws {
        let node = try parse("a: true\nb: \"true\"\nc: null\nd: 'null'\ne: ~\nf:\ng: FALSE\n")
        #expect(node["a"]?.scalar?.bool == true)
        #expect(node["b"]?.scalar?.bool == nil)
        #expect(node["c"]?.scalar?.isNull == true)
        #expect(node["d"]?.scalar?.isNull == false)
        #expect(node["e"]?.scalar?.isNull == true)
        #expect(node["f"]?.scalar?.isNull == true)
        #expect(node["g"]?.scalar?.bool == false)
    }

    @Test func blockScalarsKeepTheirText() throws {
        let node = try parse("lit: |\n  one\n  two\nfold: >\n  one\n  two\n")
        #expect(node["lit"]?.scalar?.text == "one\ntwo\n")
        #expect(node["lit"]?.scalar?.style == .literal)
        #expect(node["fold"]?.scalar?.text == "one two\n")
        #expect(node["fold"]?.scalar?.style == .folded)
    }

    @Test func doubleQuotedEscapesAreDecoded() throws {
        #expect(try parse("v: \"a\\tb\\u00e9\"\n")["v"]?.scalar?.text == "a\tbé")
    }

    // MARK: - Collections

    @Test func sequencesBlockAndFlow() throws {
        let node = try parse("block:\n  - a\n  - b\nflow: [1, \"2\", [x]]\nempty: []\n")
        #expect(node["block"]?.sequence?.compactMap(\.scalar?.text) == ["a", "b"])
        let flow = try #require(node["flow"]?.sequence)
        #expect(flow.count == 3)
        #expect(flow[0].scalar?.int == 1)
        #expect(flow[1].scalar?.int == nil)
        #expect(flow[2].sequence?.first?.scalar?.text == "x")
        #expect(node["empty"]?.sequence?.isEmpty == true)
    }

    @Test func mappingsKeepDocumentOrderAndDuplicates() throws {
        let node = try parse("z: 1\na: 2\nm: {y: 3, b: 4}\nz: 5\n")
        #expect(node.mapping?.compactMap(\.key.scalar?.text) == ["z", "a", "m", "z"])
        #expect(node["m"]?.mapping?.compactMap(\.key.scalar?.text) == ["y", "b"])
        #expect(node["z"]?.scalar?.text == "1")
    }

    @Test func emptyStreamIsNil() throws {
        #expect(try YAMLParser.parse("", file: "t.yml") == nil)
        #expect(try YAMLParser.parse("# only a comment\n", file: "t.yml") == nil)
    }

    @Test func kindNamesForMessages() throws {
        let node = try parse("s: x\nn: ~\nl: []\nm: {}\n")
        #expect(node["s"]?.kindName == "a scalar")
        #expect(node["n"]?.kindName == "null")
        #expect(node["l"]?.kindName == "a list")
        #expect(node["m"]?.kindName == "a mapping")
    }

    // MARK: - Anchors, aliases, merges

    @Test func aliasCopiesTheAnchoredNode() throws {
        let node = try parse("base: &b {type: string, required: true}\ncopy: *b\nlist: [&s x, *s]\n")
        #expect(node["copy"] == node["base"])
        #expect(node["copy"]?.mark == Mark(file: "t.yml", line: 1, column: 7))
        #expect(node["list"]?.sequence?.map(\.scalar?.text) == ["x", "x"])
    }

    @Test func mergeKeyAddsMissingKeysAndOwnKeysWin() throws {
        let node = try parse(
            """
            defaults: &d {type: string, required: true, readonly: false}
            email:
              required: false
              <<: *d
              key: mail
            """)
        let email = try #require(node["email"])
        #expect(email.mapping?.compactMap(\.key.scalar?.text) == ["required", "key", "type", "readonly"])
        #expect(email["required"]?.scalar?.bool == false)
        #expect(email["type"]?.scalar?.text == "string")
        #expect(email["<<"] == nil)
    }

    @Test func mergeOfAListTakesEarlierMappingsFirst() throws {
        let node = try parse("a: &a {x: 1, y: 1}\nb: &b {y: 2, z: 2}\nc: {<<: [*a, *b], z: 3}\n")
        let c = try #require(node["c"])
        #expect(c["x"]?.scalar?.int == 1)
        #expect(c["y"]?.scalar?.int == 1)
        #expect(c["z"]?.scalar?.int == 3)
    }

    @Test func quotedLessThanLessThanIsAnOrdinaryKey() throws {
        let node = try parse("m: {\"<<\": {x: 1}}\n")
        #expect(node["m"]?["<<"]?["x"]?.scalar?.int == 1)
    }

    @Test(arguments: [
        ("a: &x 1\nb: {<<: *x}\n", "t.yml:2:5: a '<<' merge takes a mapping or a list of mappings, found a scalar"),
        ("a: &x 1\nb:\n  <<: [*x]\n", "t.yml:3:3: a '<<' merge takes mappings, found a scalar in the list"),
        ("a: *nope\n", "t.yml:1:4: unknown alias '*nope'"),
        ("a: 1\nb:\n  c: *later\nd: &later 2\n", "t.yml:3:6: unknown alias '*later'"),
    ])
    func aliasAndMergeErrors(source: String, message: String) {
        #expect(error(source) == message)
    }

    // MARK: - Marks

    @Test func marksAreOneBasedLineAndColumn() throws {
        let node = try parse(
            """
            rmap: 1
            entities:
              CRMPerson:
                attributes:
                  id: int
                  tags: [string]
                  email: { type: string }
            """)
        let person = try #require(node["entities"]?["CRMPerson"])
        let attributes = try #require(person["attributes"])
        #expect(node.mark == Mark(file: "t.yml", line: 1, column: 1))
        #expect(node["rmap"]?.mark == Mark(file: "t.yml", line: 1, column: 7))
        #expect(node.mapping?[1].key.mark == Mark(file: "t.yml", line: 2, column: 1))
        #expect(node["entities"]?.mapping?.first?.key.mark == Mark(file: "t.yml", line: 3, column: 3))
        #expect(person.mark == Mark(file: "t.yml", line: 4, column: 5))
        #expect(attributes["id"]?.mark == Mark(file: "t.yml", line: 5, column: 11))
        #expect(attributes["tags"]?.mark == Mark(file: "t.yml", line: 6, column: 13))
        #expect(attributes["tags"]?.sequence?.first?.mark == Mark(file: "t.yml", line: 6, column: 14))
        #expect(attributes["email"]?.mark == Mark(file: "t.yml", line: 7, column: 14))
        #expect(attributes["email"]?["type"]?.mark == Mark(file: "t.yml", line: 7, column: 22))
    }

    @Test func markDescriptionAndOrder() {
        let a = Mark(file: "a.yml", line: 2, column: 9)
        #expect(a.description == "a.yml:2:9")
        #expect(a < Mark(file: "a.yml", line: 10, column: 1))
        #expect(a < Mark(file: "a.yml", line: 2, column: 10))
        #expect(Mark(file: "b.yml", line: 1, column: 1) > Mark(file: "a.yml", line: 99, column: 1))
    }

    // MARK: - Syntax errors

    @Test(arguments: [
        (
            "a: [1, 2\n",
            "t.yml:2:1: did not find expected ',' or ']' while parsing a flow sequence (inside [ ], a value holding "
                + "'{', '}', '[', ']' or ',' must be quoted: \"${VAR}\")"
        ),
        (
            "a: {path: ${DATA}/people.json}\n",
            "t.yml:1:12: did not find expected ',' or '}' while parsing a flow mapping (inside { }, a value holding "
                + "'{', '}', '[', ']' or ',' must be quoted: \"${VAR}/people.json\")"
        ),
        (
            "a: b\n  c: d\n",
            "t.yml:2:4: mapping values are not allowed in this context (check the indentation: a key is indented "
                + "under a value on the line above, or an unquoted value holds ': ' (quote it))"
        ),
        ("a: 'x\n", "t.yml:2:1: found unexpected end of stream while scanning a quoted scalar"),
        (
            "- a\nb: c\n",
            "t.yml:2:1: did not find expected '-' indicator while parsing a block collection (check the "
                + "indentation: the items of one list start in the same column)"
        ),
        (
            "entities:\n  P:\n    source: x\n   attributes: {}\n",
            "t.yml:4:4: did not find expected key while parsing a block mapping (check the indentation: the keys "
                + "of one mapping start in the same column)"
        ),
        ("a: @b\n", "t.yml:1:4: found character that cannot start any token while scanning for the next token"),
        ("\ta: 1\n", "t.yml:1:1: found character that cannot start any token while scanning for the next token"),
    ])
    func syntaxErrorsCarryLibyamlsProblemAndPosition(source: String, message: String) {
        #expect(error(source) == message)
    }

    @Test func unreadableFile() {
        #expect(
            throws: YAMLError(
                mark: Mark(file: "/nonexistent/x.yml", line: 1, column: 1), problem: "cannot read the file")
        ) {
            try YAMLParser.parse(contentsOf: "/nonexistent/x.yml")
        }
    }
}

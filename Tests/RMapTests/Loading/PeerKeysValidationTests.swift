import RMap
import Testing

/// Every key issue 33 adds, validated like the rest: wrong values and combinations are errors at
/// `file:line:col`, misspellings get a "did you mean".
@Suite("Mapping validation of issue 33's keys")
struct PeerKeysValidationTests {
    static let invalid: [InvalidMapping] = [
        InvalidMapping(
            "time_zone", "rmap: 1\ntime_zone: Europe/Berln\n",
            "mappings/crm.yml:2:12: unknown time zone 'Europe/Berln' (did you mean 'Europe/Berlin'?)"),
        InvalidMapping(
            "time_zone far from any", "rmap: 1\ntime_zone: Mars/Olympus\n",
            "mappings/crm.yml:2:12: unknown time zone 'Mars/Olympus' (an IANA name such as Europe/Berlin, or UTC)"),
        InvalidMapping(
            "misspelt time_zone", "rmap: 1\ntimezone: UTC\n",
            "mappings/crm.yml:2:1: unknown key 'timezone' in the mapping file (did you mean 'time_zone'?)"),
        InvalidMapping(
            "attribute keys",
            """
            rmap: 1
            entities:
              U:
                attributes:
                  id: int
                  a: { type: string, key: "" }
                  b: { type: string, key: "x..y" }
                  c: { type: string, wrap_single: true }
                  d: { type: string, true_values: [y] }
                  e: { type: bool, true_values: [y], false_values: [Y] }
                  f: { type: bool, false_values: [] }
                  g: { type: bool, empty_as_nul: true }
                  h: { type: date, empty_as_null: maybe }
                  i: { type: date, format: dotnett }
            """,
            "mappings/crm.yml:6:31: 'key' of attribute 'a' is empty",
            "mappings/crm.yml:7:31: 'key' of attribute 'b' has an empty segment: 'x..y'",
            "mappings/crm.yml:8:39: 'wrap_single' applies to array attributes such as [string], not string",
            "mappings/crm.yml:9:39: 'true_values' applies to bool attributes, not string",
            "mappings/crm.yml:10:56: 'y' is both a true and a false value",
            "mappings/crm.yml:11:38: 'false_values' lists no value",
            "mappings/crm.yml:12:24: unknown key 'empty_as_nul' in attribute 'g' (did you mean 'empty_as_null'?)",
            "mappings/crm.yml:13:39: 'empty_as_null' must be true or false, found 'maybe'"),
        InvalidMapping(
            "unknown_type",
            """
            rmap: 1
            entities:
              U:
                unknown_type: skip
                attributes: { id: int }
              V:
                type_key: kind
                unknown_type: ignore
                attributes: { id: int }
            """,
            "mappings/crm.yml:4:19: 'unknown_type' of 'U' needs a 'type_key' or a JSON:API source (format: jsonapi): without either no record names its type",
            "mappings/crm.yml:8:19: 'unknown_type' must be one of reject, skip, found 'ignore'"),
        InvalidMapping(
            "embedded",
            """
            rmap: 1
            entities:
              U:
                attributes: { id: int }
                relationships:
                  a: { to_many: A, embedded: true }
                  b: { to_one: A, embedded: true, key: b, nested: true }
                  c: { to_one: B, embedded: true }
                  d: { to_one: U, embedded: true }
                  e: { to_one: A, embeded: true }
              A:
                source: false
                attributes: { id: int, x: string }
              B:
                source: false
                identity: code
                attributes: { code: string }
            """,
            "mappings/crm.yml:6:7: 'embedded' applies to to-one relationships: relationship 'a' of 'U' is a to-many, and a record's own keys hold one object",
            "mappings/crm.yml:7:44: relationship 'b' of 'U' is embedded: it reads the record's own keys, so it takes no 'key'",
            "mappings/crm.yml:7:55: relationship 'b' of 'U' is embedded: it reads the record's own keys, so it takes no 'nested'",
            "mappings/crm.yml:8:7: embedded relationship 'c' of 'U' gives 'B' the identity of 'U' (id: int), but 'B' is identified by code: string",
            "mappings/crm.yml:9:7: embedded relationship 'U.d' leads back to 'U' through embedded relationships: the record's keys would build objects for ever",
            "mappings/crm.yml:10:7: relationship 'U.e' is neither nested, connected nor an inverse: nothing would fill it",
            "mappings/crm.yml:10:23: unknown key 'embeded' in relationship 'e' of 'U' (did you mean 'embedded'?)"),
        InvalidMapping(
            "identify_nested_by_parent_key",
            """
            rmap: 1
            entities:
              U:
                attributes: { id: int }
                relationships:
                  a: { to_many: P, nested: true, identify_nested_by_parent_key: true }
                  b: { to_many: P, nested: true, identify_nested_by_parent_key: { ownr: id } }
                  c: { to_many: P, nested: true, identify_nested_by_parent_key: yes }
                  d: { to_one: P, connect: { foreign_key: { id: owner } }, identify_nested_by_parent_key: { owner: id } }
                  e: { to_many: P, nested: true, identify_nested_by_parent_key: {} }
              P:
                source: false
                identity: [owner, name]
                attributes: { owner: int, name: string }
            """,
            "mappings/crm.yml:6:7: 'identify_nested_by_parent_key: true' of 'U.a' needs an inverse to-one on 'P' connected by 'foreign_key'; or name the attributes: {child attribute: parent attribute}",
            "mappings/crm.yml:7:71: unknown attribute 'ownr' on 'P' in 'identify_nested_by_parent_key' (did you mean 'owner'?)",
            "mappings/crm.yml:8:69: 'identify_nested_by_parent_key' must be true or a mapping {child attribute: parent attribute}, found 'yes'",
            "mappings/crm.yml:9:95: 'identify_nested_by_parent_key' applies to nested relationships: only a nested record has a parent",
            "mappings/crm.yml:10:69: 'identify_nested_by_parent_key' names no attribute"),
    ]

    @Test("each invalid file gives exactly its issues", arguments: invalid)
    func issues(_ mapping: InvalidMapping) {
        #expect(LoaderHarness.issues(mapping.yaml) == mapping.issues)
    }

    @Test("the keys load into the model")
    func loaded() throws {
        let model = try LoaderHarness.load(
            """
            rmap: 1
            time_zone: Asia/Tokyo
            entities:
              U:
                type_key: type
                unknown_type: skip
                attributes:
                  id: int
                  at: { type: datetime, format: "dd/MM/yyyy HH:mm" }
                  seen: { type: datetime, format: dotnet }
                  ok: { type: "[bool]", true_values: Y, empty_as_null: true, wrap_single: true }
                relationships:
                  spot: { to_one: S, embedded: true }
              S:
                source: false
                identity: uid
                attributes: { uid: int, x: double }
            """)
        let user = try #require(model.entity(named: "U"))
        #expect(user.unknownType == .skip)
        #expect(user.identityInferred)
        #expect(user.attribute(named: "at")?.format == .pattern("dd/MM/yyyy HH:mm", timeZone: "Asia/Tokyo"))
        #expect(user.attribute(named: "seen")?.format == .dotnet)
        let ok = try #require(user.attribute(named: "ok"))
        #expect(ok.booleanWords == BooleanWords(trueValues: ["y"], falseValues: ["false", "f", "no", "0"]))
        #expect(ok.emptyAsNull && ok.wrapSingle)
        let spot = try #require(user.relationship(named: "spot"))
        #expect(spot.embedded && spot.nested)
        #expect(model.entity(named: "S")?.identityInferred == false)
    }
}

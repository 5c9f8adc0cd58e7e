import RMap
import Testing

/// One invalid mapping file and every issue it must produce, exactly.
struct InvalidMapping: CustomTestStringConvertible, Sendable {
    var name: String
    var yaml: String
    var issues: [String]

    var testDescription: String { name }

    init(_ name: String, _ yaml: String, _ issues: String...) {
        self.name = name
        self.yaml = yaml
        self.issues = issues
    }
}

@Suite("Mapping validation errors")
struct ValidationErrorTests {
    static let fileLevel: [InvalidMapping] = [
        InvalidMapping(
            "missing rmap", "entities:\n  P: {attributes: {id: int}}\n",
            "mappings/crm.yml:1:1: missing required key 'rmap' (the schema version: 'rmap: 1')"),
        InvalidMapping(
            "unsupported version", "rmap: 2\n",
            "mappings/crm.yml:1:7: unsupported schema version '2' (this rmap reads 'rmap: 1')"),
        InvalidMapping(
            "quoted version", "rmap: \"1\"\n",
            "mappings/crm.yml:1:7: the schema version is a number, found the quoted string '1' (write 'rmap: 1')"),
        InvalidMapping(
            "unknown top-level key", "rmap: 1\nentites: {}\n",
            "mappings/crm.yml:2:1: unknown key 'entites' in the mapping file (did you mean 'entities'?)"),
        InvalidMapping(
            "unknown top-level key, nothing close", "rmap: 1\nwhatever: 1\n",
            "mappings/crm.yml:2:1: unknown key 'whatever' in the mapping file"),
        InvalidMapping(
            "file is not a mapping", "- rmap\n",
            "mappings/crm.yml:1:1: the mapping file must be a mapping, found a list"),
        InvalidMapping(
            "empty file", "# nothing\n",
            "mappings/crm.yml:1:1: the mapping file is empty"),
        InvalidMapping(
            "duplicate top-level key", "rmap: 1\nrmap: 1\n",
            "mappings/crm.yml:2:1: duplicate key 'rmap' in the mapping file (first at mappings/crm.yml:1:1)"),
        InvalidMapping(
            "YAML syntax error", "rmap: 1\nentities: [\n",
            "mappings/crm.yml:3:1: did not find expected node content while parsing a flow node"),
        InvalidMapping(
            "naming choices", "rmap: 1\nnaming: {entity_prefix: CRM, attributes: snakecase, root: wraped, plural: x}\n",
            "mappings/crm.yml:2:42: 'attributes' must be one of snake_case, camel_case, kebab_case, as_is, found 'snakecase' (did you mean 'snake_case'?)",
            "mappings/crm.yml:2:59: 'root' must be one of wrapped, bare, auto, found 'wraped' (did you mean 'wrapped'?)",
            "mappings/crm.yml:2:67: unknown key 'plural' in naming"),
        InvalidMapping(
            "naming is not a mapping", "rmap: 1\nnaming: CRM\n",
            "mappings/crm.yml:2:9: naming must be a mapping, found a scalar"),
        InvalidMapping(
            "unknown inflections key", "rmap: 1\ninflections: {irregulars: {person: people}}\n",
            "mappings/crm.yml:2:15: unknown key 'irregulars' in inflections (did you mean 'irregular'?)"),
        InvalidMapping(
            "unknown source plugin", "rmap: 1\nsource: {plugin: htp}\n",
            "mappings/crm.yml:2:18: unknown source plugin 'htp' (did you mean 'http'?)"),
        InvalidMapping(
            "unknown store plugin", "rmap: 1\nstore: {plugin: sqlit, path: x.sqlite}\n",
            "mappings/crm.yml:2:17: unknown store plugin 'sqlit' (did you mean 'sqlite'?)"),
        InvalidMapping(
            "another name of a source plugin", "rmap: 1\nsource: {plugin: REST}\n",
            "mappings/crm.yml:2:18: unknown source plugin 'REST' (did you mean 'http'?)"),
        InvalidMapping(
            "unknown plugin option", "rmap: 1\nsource: {plugin: http, sit: \"https://x\"}\n",
            "mappings/crm.yml:2:24: unknown key 'sit' in source (plugin 'http') (did you mean 'site'?)"),
        InvalidMapping(
            "option of the default plugin", "rmap: 1\nstore: {paht: x.sqlite}\n",
            "mappings/crm.yml:2:9: unknown key 'paht' in store (plugin 'sqlite') (did you mean 'path'?)"),
        InvalidMapping(
            "source is not a mapping", "rmap: 1\nsource: file\n",
            "mappings/crm.yml:2:9: source must be a mapping, found a scalar"),
        InvalidMapping(
            "entities is not a mapping", "rmap: 1\nentities: [P]\n",
            "mappings/crm.yml:2:11: entities must be a mapping, found a list"),
        InvalidMapping(
            "duplicate entity in one file",
            "rmap: 1\nentities:\n  P: {attributes: {id: int}}\n  P: {attributes: {id: int}}\n",
            "mappings/crm.yml:4:3: duplicate key 'P' in entities (first at mappings/crm.yml:3:3)"),
    ]

    @Test(arguments: fileLevel)
    func fileLevelProblems(_ mapping: InvalidMapping) {
        #expect(LoaderHarness.issues(mapping.yaml) == mapping.issues)
    }

    static let entityLevel: [InvalidMapping] = [
        InvalidMapping(
            "unknown entity key",
            "rmap: 1\nentities:\n  P:\n    elemnt: person\n    attributes: {id: int}\n",
            "mappings/crm.yml:4:5: unknown key 'elemnt' in entity 'P' (did you mean 'element'?)"),
        InvalidMapping(
            "entity is not a mapping", "rmap: 1\nentities:\n  P: person\n",
            "mappings/crm.yml:3:6: entity 'P' must be a mapping, found a scalar",
            "mappings/crm.yml:3:3: entity 'P' has no identity: add an 'id' attribute or declare 'identity:'"),
        InvalidMapping(
            "no identity", "rmap: 1\nentities:\n  P: {attributes: {name: string}}\n",
            "mappings/crm.yml:3:3: entity 'P' has no identity: add an 'id' attribute or declare 'identity:'"),
        InvalidMapping(
            "identity attribute missing", "rmap: 1\nentities:\n  P: {identity: uid, attributes: {id: int}}\n",
            "mappings/crm.yml:3:17: identity attribute 'uid' does not exist on 'P' (did you mean 'id'?)"),
        InvalidMapping(
            "one of a composite identity missing",
            "rmap: 1\nentities:\n  P: {identity: [region, code], attributes: {region: string, cod: string}}\n",
            "mappings/crm.yml:3:17: identity attribute 'code' does not exist on 'P' (did you mean 'cod'?)"),
        InvalidMapping(
            "choices",
            "rmap: 1\nentities:\n  P: {on_conflict: remot, orphans: drop, push: {method: post}, attributes: {id: int}}\n",
            "mappings/crm.yml:3:20: 'on_conflict' must be one of fail, local, remote, found 'remot' (did you mean 'remote'?)",
            "mappings/crm.yml:3:36: 'orphans' must be one of keep, delete, found 'drop'",
            "mappings/crm.yml:3:57: 'method' must be one of put, patch, found 'post'"),
        InvalidMapping(
            "unknown push key", "rmap: 1\nentities:\n  P: {push: {mehtod: put}, attributes: {id: int}}\n",
            "mappings/crm.yml:3:14: unknown key 'mehtod' in 'push' (did you mean 'method'?)"),
        InvalidMapping(
            "sort keys",
            "rmap: 1\nentities:\n  P: {sort: [nme asc, id down, a b c], attributes: {id: int, name: string}}\n",
            "mappings/crm.yml:3:14: unknown attribute 'nme' in 'sort' of 'P' (did you mean 'name'?)",
            "mappings/crm.yml:3:23: sort direction must be asc or desc, found 'down'",
            "mappings/crm.yml:3:32: a sort key is 'attribute', 'attribute asc' or 'attribute desc', found 'a b c'"),
        InvalidMapping(
            "extends unknown (and no knock-on: no identity)",
            "rmap: 1\nentities:\n  CRMPerson: {attributes: {id: int}}\n  CRMAdmin: {extends: CRMPersn}\n",
            "mappings/crm.yml:4:23: entity 'CRMAdmin' extends unknown entity 'CRMPersn' (did you mean 'CRMPerson'?)"),
        InvalidMapping(
            "extends cycle",
            "rmap: 1\nentities:\n  A: {extends: B, attributes: {id: int}}\n  B: {extends: A, attributes: {id: int}}\n",
            "mappings/crm.yml:4:16: 'extends' cycle: A -> B -> A"),
        InvalidMapping(
            "extends itself",
            "rmap: 1\nentities:\n  C: {extends: C, attributes: {id: int}}\n  D: {type_key: type, attributes: {id: int}}\n",
            "mappings/crm.yml:3:16: 'extends' cycle: C -> C"),
        InvalidMapping(
            "types",
            "rmap: 1\nentities:\n  R: {type_key: kind, types: {Huge: Nope, Wrong: P}, attributes: {id: int}}\n  P: {attributes: {id: int}}\n",
            "mappings/crm.yml:3:37: unknown entity 'Nope' for type 'Huge'",
            "mappings/crm.yml:3:50: entity 'P' for type 'Wrong' does not extend 'R'"),
        InvalidMapping(
            "duplicate type value",
            "rmap: 1\nentities:\n  R: {type_key: kind, types: {S: R, S: R}, attributes: {id: int}}\n",
            "mappings/crm.yml:3:37: duplicate key 'S' in 'types' (first at mappings/crm.yml:3:31)"),
        InvalidMapping(
            "nested_path without placeholder",
            "rmap: 1\nentities:\n  P:\n    nested_path: people/projects\n    attributes: {id: int}\n",
            "mappings/crm.yml:4:18: 'nested_path' needs a placeholder such as {personId} for the parent's identity"),
        InvalidMapping(
            "nested_path unknown placeholder",
            "rmap: 1\nentities:\n  P:\n    nested_path: people/{personID}/projects\n    attributes: {id: int, personId: int}\n",
            "mappings/crm.yml:4:18: unknown attribute 'personID' in 'nested_path' of 'P' (did you mean 'personId'?)"),
        InvalidMapping(
            "nested_path placeholder not a foreign key",
            "rmap: 1\nentities:\n  P:\n    nested_path: people/{personId}/projects\n    attributes: {id: int, personId: int}\n",
            "mappings/crm.yml:4:18: 'nested_path' placeholder '{personId}' must be the foreign key of a to-one relationship of 'P'"
        ),
        InvalidMapping(
            "fixed file path shared",
            "rmap: 1\nsource: {plugin: file, path: data.json}\nentities:\n  T: {attributes: {id: int}}\n  U: {attributes: {id: int}}\n",
            "mappings/crm.yml:2:9: 'U' and 'T' share the fixed file path 'data.json': use {collection} in the path, or give one of them its own source"
        ),
    ]

    @Test(arguments: entityLevel)
    func entityProblems(_ mapping: InvalidMapping) {
        #expect(LoaderHarness.issues(mapping.yaml) == mapping.issues.sorted(by: Self.byPosition))
    }

    static let attributeLevel: [InvalidMapping] = [
        InvalidMapping(
            "unknown type", "rmap: 1\nentities:\n  P: {attributes: {id: int, name: strng}}\n",
            "mappings/crm.yml:3:35: unknown type 'strng' for attribute 'name' (did you mean 'string'?)"),
        InvalidMapping(
            "unknown type in a mapping", "rmap: 1\nentities:\n  P: {attributes: {id: int, seen: {type: datetme}}}\n",
            "mappings/crm.yml:3:42: unknown type 'datetme' for attribute 'seen' (did you mean 'datetime'?)"),
        InvalidMapping(
            "array of two types", "rmap: 1\nentities:\n  P: {attributes: {id: int, tags: [string, int]}}\n",
            "mappings/crm.yml:3:35: the type of attribute 'tags' must be a list of one scalar type, such as [int]"),
        InvalidMapping(
            "unknown attribute key", "rmap: 1\nentities:\n  P: {attributes: {id: {type: int, requird: true}}}\n",
            "mappings/crm.yml:3:36: unknown key 'requird' in attribute 'id' (did you mean 'required'?)"),
        InvalidMapping(
            "bool expected", "rmap: 1\nentities:\n  P: {attributes: {id: int, email: {required: yes, readonly: 1}}}\n",
            "mappings/crm.yml:3:47: 'required' must be true or false, found 'yes'",
            "mappings/crm.yml:3:62: 'readonly' must be true or false, found '1'"),
        InvalidMapping(
            "attributes is not a mapping (and no knock-on: no identity)",
            "rmap: 1\nentities:\n  P: {attributes: [id]}\n",
            "mappings/crm.yml:3:19: 'attributes' of entity 'P' must be a mapping, found a list"),
        InvalidMapping(
            "another schema language's type name: a suggestion, and no knock-on (no identity)",
            "rmap: 1\nentities:\n  P: {attributes: {id: integer, flags: [Boolean]}}\n",
            "mappings/crm.yml:3:24: unknown type 'integer' for attribute 'id' (did you mean 'int'?)",
            "mappings/crm.yml:3:40: unknown type '[Boolean]' for attribute 'flags' (did you mean '[bool]'?)"),
        InvalidMapping(
            "an unreadable type of an attribute that a connection and the sort name: one error each",
            "rmap: 1\nentities:\n  P:\n    sort: [seen desc]\n    attributes: {id: int, seen: timestmp, bossId: float}\n"
                + "    relationships:\n      boss: {to_one: P, connect: {foreign_key: {bossId: id}}}\n",
            "mappings/crm.yml:5:33: unknown type 'timestmp' for attribute 'seen' (did you mean 'datetime'?)",
            "mappings/crm.yml:5:51: unknown type 'float' for attribute 'bossId' (did you mean 'double'?)"),
        InvalidMapping(
            "duplicate attribute", "rmap: 1\nentities:\n  P:\n    attributes:\n      id: int\n      id: string\n",
            "mappings/crm.yml:6:7: duplicate key 'id' in 'attributes' of entity 'P' (first at mappings/crm.yml:5:7)"),
        InvalidMapping(
            "unknown transformer",
            "rmap: 1\nentities:\n  P: {attributes: {id: int, slug: {transform: [trim, lowercse]}}}\n",
            "mappings/crm.yml:3:47: unknown transformer 'lowercse' (did you mean 'lowercase'?)"),
        InvalidMapping(
            "format on a string",
            "rmap: 1\nentities:\n  P: {attributes: {id: int, at: {type: string, format: epoch_s}}}\n",
            "mappings/crm.yml:3:56: 'format' applies to date and datetime attributes, not string"),
        InvalidMapping(
            "default of the wrong type",
            "rmap: 1\nentities:\n  P: {attributes: {id: int, score: {type: int, default: high}}}\n",
            "mappings/crm.yml:3:57: the default of attribute 'score' must be an int, found 'high'"),
        InvalidMapping(
            "value map is not a mapping", "rmap: 1\nentities:\n  P: {attributes: {id: int, status: {map: [A, I]}}}\n",
            "mappings/crm.yml:3:43: 'map' must be a mapping, found a list"),
    ]

    @Test(arguments: attributeLevel)
    func attributeProblems(_ mapping: InvalidMapping) {
        #expect(LoaderHarness.issues(mapping.yaml) == mapping.issues.sorted(by: Self.byPosition))
    }

    static let relationshipLevel: [InvalidMapping] = [
        InvalidMapping(
            "unknown relationship key",
            "rmap: 1\nentities:\n  P:\n    attributes: {id: int}\n    relationships:\n      me: {to_one: P, invers: me, nested: true}\n",
            "mappings/crm.yml:6:23: unknown key 'invers' in relationship 'me' of 'P' (did you mean 'inverse'?)"),
        InvalidMapping(
            "misspelt kind",
            "rmap: 1\nentities:\n  P:\n    attributes: {id: int}\n    relationships:\n      me: {to_on: P, nested: true}\n",
            "mappings/crm.yml:6:12: unknown key 'to_on' in relationship 'me' of 'P' (did you mean 'to_one'?)"),
        InvalidMapping(
            "no kind",
            "rmap: 1\nentities:\n  P:\n    attributes: {id: int}\n    relationships:\n      me: {nested: true}\n",
            "mappings/crm.yml:6:11: relationship 'me' of 'P' needs exactly one of 'to_one' or 'to_many'"),
        InvalidMapping(
            "unknown destination",
            "rmap: 1\nentities:\n  CRMPerson:\n    attributes: {id: int}\n    relationships:\n      projects: {to_many: CRMProjct, nested: true}\n  CRMProject: {attributes: {id: int}}\n",
            "mappings/crm.yml:6:27: relationship 'projects' of 'CRMPerson' points to unknown entity 'CRMProjct' (did you mean 'CRMProject'?)"
        ),
        InvalidMapping(
            "unknown connect key",
            "rmap: 1\nentities:\n  P:\n    attributes: {id: int, bossId: int}\n    relationships:\n      boss:\n        to_one: P\n        connect:\n          forign_key: {bossId: id}\n",
            "mappings/crm.yml:9:11: unknown key 'forign_key' in connect (did you mean 'foreign_key'?)"),
        InvalidMapping(
            "connect with both rules",
            "rmap: 1\nentities:\n  P:\n    attributes: {id: int, bossId: int}\n    relationships:\n      boss: {to_one: P, connect: {foreign_key: {bossId: id}, key_path: bossId}}\n",
            "mappings/crm.yml:6:34: connect of relationship 'boss' of 'P' needs exactly one of 'foreign_key' or 'key_path'"
        ),
        InvalidMapping(
            "foreign key source side",
            "rmap: 1\nentities:\n  P:\n    attributes: {id: int, bossId: int}\n    relationships:\n      boss: {to_one: P, connect: {foreign_key: {bosId: id}}}\n",
            "mappings/crm.yml:6:49: unknown attribute 'bosId' on 'P' in 'foreign_key' (did you mean 'bossId'?)"),
        InvalidMapping(
            "foreign key destination side",
            "rmap: 1\nentities:\n  P:\n    attributes: {id: int, bossId: int}\n    relationships:\n      boss: {to_one: Q, connect: {foreign_key: {bossId: idd}}}\n  Q: {attributes: {id: int}}\n",
            "mappings/crm.yml:6:57: unknown attribute 'idd' on 'Q' in 'foreign_key' (did you mean 'id'?)"),
        InvalidMapping(
            "empty foreign key",
            "rmap: 1\nentities:\n  P:\n    attributes: {id: int}\n    relationships:\n      boss: {to_one: P, connect: {foreign_key: {}}}\n",
            "mappings/crm.yml:6:48: 'foreign_key' needs at least one 'source: destination' pair"),
        InvalidMapping(
            "unknown key path segment",
            "rmap: 1\nentities:\n  P:\n    attributes: {id: int, managerId: int}\n    relationships:\n      lead: {to_one: P, connect: {key_path: ownr.managerId}}\n      owner: {to_one: P, connect: {foreign_key: {managerId: id}}}\n",
            "mappings/crm.yml:6:45: unknown attribute or relationship 'ownr' on 'P' in key path 'ownr.managerId' (did you mean 'owner'?)"
        ),
        InvalidMapping(
            "key path past an attribute",
            "rmap: 1\nentities:\n  P:\n    attributes: {id: int, name: string}\n    relationships:\n      lead: {to_one: P, connect: {key_path: name.id}}\n",
            "mappings/crm.yml:6:45: key path 'name.id' goes on past attribute 'name'"),
        InvalidMapping(
            "key path cycle",
            "rmap: 1\nentities:\n  Q:\n    attributes: {id: int}\n    relationships:\n      a: {to_one: Q, connect: {key_path: b.id}}\n      b: {to_one: Q, connect: {key_path: a.id}}\n",
            "mappings/crm.yml:6:31: key-path connection cycle: Q.a -> Q.b -> Q.a"),
        InvalidMapping(
            "predicates",
            "rmap: 1\nentities:\n  P:\n    attributes: {id: int, age: int, active: bool}\n    relationships:\n      pals:\n        to_many: P\n        connect:\n          foreign_key: {id: id}\n          when: {age: old, zzz: 1, active: {eq: maybe}}\n          where: {age: {gt: x}, active: {between: [1, 2]}, id: {in: [1, two]}}\n",
            "mappings/crm.yml:10:23: the condition on 'age' must be an int, found 'old'",
            "mappings/crm.yml:10:28: unknown attribute 'zzz' on 'P' in 'when'",
            "mappings/crm.yml:10:49: the condition on 'active' must be a bool, found 'maybe'",
            "mappings/crm.yml:11:29: the condition on 'age' must be an int, found 'x'",
            "mappings/crm.yml:11:42: unknown key 'between' in the condition on 'active'",
            "mappings/crm.yml:11:41: the condition on 'active' takes one operator of eq, ne, lt, le, gt, ge, in, null",
            "mappings/crm.yml:11:73: the condition on 'id' must be an int, found 'two'"),
        InvalidMapping(
            "unknown inverse",
            "rmap: 1\nentities:\n  P:\n    attributes: {id: int}\n    relationships:\n      kids: {to_many: P, inverse: parnt}\n      parent: {to_one: P, nested: true}\n",
            "mappings/crm.yml:6:7: inverse 'parnt' of 'P.kids' does not exist on 'P' (did you mean 'parent'?)"),
        InvalidMapping(
            "inverses disagree",
            "rmap: 1\nentities:\n  P:\n    attributes: {id: int}\n    relationships:\n      a: {to_one: P, inverse: b, nested: true}\n      b: {to_one: P, inverse: c, nested: true}\n      c: {to_one: P, nested: true}\n",
            "mappings/crm.yml:6:7: 'P.a' and 'P.b' name different inverses"),
        InvalidMapping(
            "filled by nothing",
            "rmap: 1\nentities:\n  P:\n    attributes: {id: int}\n    relationships:\n      lonely: {to_one: P}\n",
            "mappings/crm.yml:6:7: relationship 'P.lonely' is neither nested, connected nor an inverse: nothing would fill it"
        ),
        InvalidMapping(
            "inverse pair filled by nothing",
            "rmap: 1\nentities:\n  P:\n    attributes: {id: int}\n    relationships:\n      a: {to_many: P, inverse: b}\n      b: {to_one: P}\n",
            "mappings/crm.yml:6:7: relationship 'P.a' and its inverse 'P.b' are neither nested nor connected: nothing would fill them",
            "mappings/crm.yml:7:7: relationship 'P.b' and its inverse 'P.a' are neither nested nor connected: nothing would fill them"
        ),
        InvalidMapping(
            "nested and connect",
            "rmap: 1\nentities:\n  P:\n    attributes: {id: int}\n    relationships:\n      kids: {to_many: P, nested: true, connect: {foreign_key: {id: id}}}\n",
            "mappings/crm.yml:6:13: relationship 'kids' of 'P' is nested, so it takes no 'connect'"),
        InvalidMapping(
            "duplicate relationship",
            "rmap: 1\nentities:\n  P:\n    attributes: {id: int}\n    relationships:\n      kids: {to_many: P, nested: true}\n      kids: {to_one: P, nested: true}\n",
            "mappings/crm.yml:7:7: duplicate key 'kids' in 'relationships' of entity 'P' (first at mappings/crm.yml:6:7)"
        ),
        InvalidMapping(
            "duplicate keys in connect maps",
            "rmap: 1\nentities:\n  P:\n    attributes: {id: int, a: int}\n    relationships:\n      p: {to_one: P, connect: {foreign_key: {a: id, a: a}, when: {a: 1, a: 2}}}\n",
            "mappings/crm.yml:6:53: duplicate key 'a' in 'foreign_key' (first at mappings/crm.yml:6:46)",
            "mappings/crm.yml:6:73: duplicate key 'a' in 'when' (first at mappings/crm.yml:6:67)"),
        InvalidMapping(
            "assignment choice",
            "rmap: 1\nentities:\n  P:\n    attributes: {id: int}\n    relationships:\n      kids: {to_many: P, nested: true, assignment: merge}\n",
            "mappings/crm.yml:6:52: 'assignment' must be one of replace, union, found 'merge'"),
    ]

    @Test(arguments: relationshipLevel)
    func relationshipProblems(_ mapping: InvalidMapping) {
        #expect(LoaderHarness.issues(mapping.yaml) == mapping.issues.sorted(by: Self.byPosition))
    }

    /// Issues come sorted by file, line and column, then message.
    static func byPosition(_ lhs: String, _ rhs: String) -> Bool {
        func key(_ issue: String) -> (String, Int, Int, String) {
            let parts = issue.split(separator: ":", maxSplits: 3).map(String.init)
            return (parts[0], Int(parts[1]) ?? 0, Int(parts[2]) ?? 0, parts[3])
        }
        return key(lhs) < key(rhs)
    }
}

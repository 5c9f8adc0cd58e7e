import Foundation

/// A file of mapping test cases (`rmap test`), RestKit's `RKMappingTest` made declarative:
/// the mapping files it tests, and cases that each give a payload and the objects it must map to.
///
/// ```yaml
/// mappings: [../mappings/crm.yml, ../mappings/work.yml]
/// cases:
///   - name: a person and her projects
///     entity: CRMPerson                  # the payload holds CRMPerson records
///     payload: [{ id: 1, first_name: Ada, projects: [{ id: 10, name: Engine }] }]
///     expect:
///       CRMPerson: [{ id: 1, firstName: Ada, projects: [10] }]
///       CRMProject: [{ id: 10, name: Engine, owner: 1 }]
///   - name: a renamed project is one PUT
///     entity: CRMPerson
///     payload: [{ id: 1, first_name: Ada, projects: [{ id: 10, name: Engine }] }]
///     edit: { CRMProject: [{ id: 10, name: Loom }] }   # create: and delete: likewise
///     expect_push: [{ method: PUT, path: /projects/10.json, body: { project: { name: Loom } } }]
/// ```
public struct MappingTestSuite: Sendable {
    /// The test file, as given.
    public var path: String
    /// The mapping files, relative to the working folder.
    public var mappings: [String]
    /// The cases, in file order.
    public var cases: [MappingTestCase]

    /// The keys of a test file.
    static let keys = ["mappings", "cases"]
    /// The keys of a case.
    static let caseKeys =
        ["name", "entity", "payload", "payload_file", "expect"]
        + LocalEdit.Kind.allCases.map(\.rawValue) + ["expect_push"]
    /// The keys of an expected request.
    static let requestKeys = ["method", "path", "body"]

    /// Reads and checks a test file.
    ///
    /// - Throws: ``MappingError`` naming the file, line and column of every problem.
    public static func load(_ path: String) throws(MappingError) -> MappingTestSuite {
        let root: YAMLNode?
        do {
            root = try YAMLParser.parse(contentsOf: path)
        } catch {
            throw MappingError(issues: [MappingIssue(mark: error.mark, message: error.problem)])
        }
        let start = Mark(file: path, line: 1, column: 1)
        guard let root else {
            throw MappingError(issues: [MappingIssue(mark: start, message: "the test file is empty")])
        }
        let diagnostics = Diagnostics(interpolator: Interpolator(environment: ProcessInfo.processInfo.environment))
        let directory = FileDecoder.directory(of: path)
        var suite = MappingTestSuite(path: path, mappings: [], cases: [])
        let pairs = diagnostics.keyedPairs(root, "the test file", allowed: keys) ?? []
        for (key, node) in pairs {
            if key == "mappings" {
                suite.mappings = (diagnostics.strings(node, "'mappings'") ?? []).map { relative($0, to: directory) }
            } else if let items = node.sequence {
                suite.cases = items.compactMap { decodeCase($0, directory: directory, diagnostics: diagnostics) }
            } else {
                diagnostics.error(node.mark, "'cases' must be a list of cases, found \(node.kindName)")
            }
        }
        for required in keys where !pairs.contains(where: { $0.0 == required }) {
            diagnostics.error(root.mark, "missing required key '\(required)'")
        }
        guard diagnostics.issues.isEmpty else { throw MappingError(issues: diagnostics.issues.sorted()) }
        return suite
    }

    private static func decodeCase(_ node: YAMLNode, directory: String, diagnostics: Diagnostics) -> MappingTestCase? {
        guard let pairs = diagnostics.keyedPairs(node, "a test case", allowed: caseKeys) else { return nil }
        var testCase = MappingTestCase(name: "", entity: "", payload: .inline(.null), expected: [], mark: node.mark)
        var found = Set<String>()
        for (key, value) in pairs {
            found.insert(key)
            switch key {
            case "name": testCase.name = diagnostics.string(value, "'name'") ?? ""
            case "entity": testCase.entity = diagnostics.string(value, "'entity'") ?? ""
            case "payload": testCase.payload = .inline(value.json)
            case "payload_file":
                testCase.payload = .file(relative(diagnostics.string(value, "'payload_file'") ?? "", to: directory))
            case "expect":
                testCase.expected = objects(value, key: key, diagnostics: diagnostics) { "expected of '\($0)'" }.map {
                    ($0.entity, $0.objects)
                }
            case "expect_push":
                testCase.expectedPush = requests(value, diagnostics: diagnostics)
            default:
                let kind = LocalEdit.Kind(rawValue: key) ?? .edit
                testCase.edits += objects(value, key: key, diagnostics: diagnostics) { "to \(key) of '\($0)'" }.map {
                    LocalEdit(kind: kind, entity: $0.entity, objects: $0.objects, mark: $0.mark)
                }
            }
        }
        for required in ["name", "entity"] where !found.contains(required) {
            diagnostics.error(node.mark, "a test case needs '\(required)'")
        }
        if !found.contains("expect"), !found.contains("expect_push") {
            diagnostics.error(node.mark, "a test case needs 'expect' or 'expect_push'")
        }
        if let edit = testCase.edits.first, !found.contains("expect_push") {
            diagnostics.error(edit.mark, "local edits ('edit', 'create', 'delete') need 'expect_push'")
        }
        if found.contains("payload") == found.contains("payload_file") {
            diagnostics.error(node.mark, "a test case needs exactly one of 'payload' or 'payload_file'")
        }
        return testCase
    }

    /// Per entity, the objects of an `expect:`, `edit:`, `create:` or `delete:` block;
    /// `what` names an entity's objects in errors (`expected of 'CRMPerson'`).
    private static func objects(_ node: YAMLNode, key: String, diagnostics: Diagnostics, what: (String) -> String)
        -> [(entity: String, objects: [ExpectedObject], mark: Mark)]
    {
        (diagnostics.keyedPairs(node, "'\(key)'", allowed: []) ?? []).compactMap { entity, list in
            guard let items = list.sequence else {
                diagnostics.error(list.mark, "the objects \(what(entity)) must be a list")
                return nil
            }
            let objects = items.compactMap { item in
                diagnostics.keyedPairs(item, "an object \(what(entity))", allowed: []).map {
                    ExpectedObject(values: $0.map { ($0.0, $0.1) }, mark: item.mark)
                }
            }
            return (entity, objects, list.mark)
        }
    }

    /// The requests of an `expect_push:` list, in plan order.
    private static func requests(_ node: YAMLNode, diagnostics: Diagnostics) -> [ExpectedRequest] {
        guard let items = node.sequence else {
            diagnostics.error(node.mark, "'expect_push' must be a list of requests, found \(node.kindName)")
            return []
        }
        return items.compactMap { item in
            guard let pairs = diagnostics.keyedPairs(item, "an expected request", allowed: requestKeys) else {
                return nil
            }
            var request = ExpectedRequest(method: "", path: "", body: nil, mark: item.mark)
            for (key, value) in pairs {
                switch key {
                case "method": request.method = diagnostics.string(value, "'method'") ?? ""
                case "path": request.path = diagnostics.string(value, "'path'") ?? ""
                default: request.body = value.json
                }
            }
            for required in ["method", "path"] where !pairs.contains(where: { $0.0 == required }) {
                diagnostics.error(item.mark, "an expected request needs '\(required)'")
            }
            return request
        }
    }

    /// A path written in the test file, as seen from the working folder.
    private static func relative(_ path: String, to directory: String) -> String {
        path.hasPrefix("/") || directory == "." ? path : "\(directory)/\(path)"
    }
}

/// One case of a ``MappingTestSuite``.
public struct MappingTestCase: Sendable {
    /// Where the payload comes from.
    public enum Payload: Sendable {
        /// `payload:` written in the test file, as JSON.
        case inline(JSONValue)
        /// `payload_file:`, relative to the working folder.
        case file(String)
    }

    /// What the case checks, as reports name it.
    public var name: String
    /// The entity whose records the payload holds.
    public var entity: String
    /// The payload.
    public var payload: Payload
    /// Per entity, the objects the payload must give: exactly these, by identity.
    public var expected: [(entity: String, objects: [ExpectedObject])]
    /// The local edits made after the payload is stored, in file order.
    public var edits: [LocalEdit] = []
    /// The requests the push plan must hold then, in order (`expect_push:`); `nil` when the case states none.
    public var expectedPush: [ExpectedRequest]? = nil
    /// Where the case starts in the test file.
    public var mark: Mark
}

/// An object a case expects (or edits, creates, deletes): the attributes and relationships it
/// names, with their values (a relationship by its destinations' identities).
public struct ExpectedObject: Sendable {
    /// The names and the values written for them.
    public var values: [(name: String, node: YAMLNode)]
    /// Where it is written.
    public var mark: Mark
}

/// Objects a case changes in the store after its payload is stored (`edit:`, `create:`,
/// `delete:`), as a program would with ``SyncStore``: the changes `expect_push:` checks the plan of.
public struct LocalEdit: Sendable {
    /// What is done to the objects.
    public enum Kind: String, Sendable, CaseIterable {
        /// Sets the attributes an object names on the stored object of its identity.
        case edit
        /// Inserts the object (an integer identity left out gets a temporary one).
        case create
        /// Deletes the stored object of its identity.
        case delete
    }

    /// What is done.
    public var kind: Kind
    /// The entity of the objects.
    public var entity: String
    /// The objects: identities and, for `edit` and `create`, attribute values.
    public var objects: [ExpectedObject]
    /// Where the entity's list is written.
    public var mark: Mark
}

/// A request a case expects in the push plan: method, path and body, compared exactly
/// (a body's object members in any order, as JSON's are).
public struct ExpectedRequest: Sendable {
    /// `POST`, `PUT`, `PATCH` or `DELETE`.
    public var method: String
    /// The path under the site, with its suffix.
    public var path: String
    /// The body; `nil` when none is written (a `DELETE`).
    public var body: JSONValue?
    /// Where it is written.
    public var mark: Mark
}

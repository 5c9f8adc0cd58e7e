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
    static let caseKeys = ["name", "entity", "payload", "payload_file", "expect"]

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
            case "payload": testCase.payload = .inline(SingerFiles.json(value))
            case "payload_file":
                testCase.payload = .file(relative(diagnostics.string(value, "'payload_file'") ?? "", to: directory))
            default:
                for (entity, list) in diagnostics.keyedPairs(value, "'expect'", allowed: []) ?? [] {
                    guard let items = list.sequence else {
                        diagnostics.error(list.mark, "the objects expected of '\(entity)' must be a list")
                        continue
                    }
                    let objects = items.compactMap { item in
                        diagnostics.keyedPairs(item, "an object expected of '\(entity)'", allowed: []).map {
                            ExpectedObject(values: $0.map { ($0.0, $0.1) }, mark: item.mark)
                        }
                    }
                    testCase.expected.append((entity, objects))
                }
            }
        }
        for required in ["name", "entity", "expect"] where !found.contains(required) {
            diagnostics.error(node.mark, "a test case needs '\(required)'")
        }
        if found.contains("payload") == found.contains("payload_file") {
            diagnostics.error(node.mark, "a test case needs exactly one of 'payload' or 'payload_file'")
        }
        return testCase
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
    /// Where the case starts in the test file.
    public var mark: Mark
}

/// An object a case expects: the attributes and relationships it names, with their values
/// (a relationship by its destinations' identities).
public struct ExpectedObject: Sendable {
    /// The names and the values written for them.
    public var values: [(name: String, node: YAMLNode)]
    /// Where it is written.
    public var mark: Mark
}

import Foundation
import Testing

/// `rmap test`: a test file's cases map their payloads with the mapping files (here the CLI
/// fixtures' crm.yml) and compare the objects with the ones expected.
@Suite("rmap test")
struct TestCommandTests {
    /// A workspace holding `crm-test.yml`, whose `mappings:` names the fixtures' crm.yml.
    static func workspace(_ cases: String) throws -> TemporaryDirectory {
        let workspace = try TemporaryDirectory()
        let crm = CLIRunner.fixtures.appendingPathComponent("crm.yml").path
        try workspace.write("crm-test.yml", "mappings: [\(crm)]\ncases:\n" + cases)
        return workspace
    }

    static let passing = """
          - name: a person and her nested project
            entity: CRMPerson
            payload:
              people:
                - { id: 1, first_name: Ada, email: ada@example.com, status: A, projects: [{ id: 10, title: " Engine " }] }
                - { id: 2, first_name: Grace, email: grace@example.com, status: I }
            expect:
              CRMPerson:
                - { id: 1, firstName: Ada, status: active, projects: [10] }
                - { id: 2, status: inactive, projects: [] }
              CRMProject: [{ id: 10, title: Engine, owner: 1 }]

        """

    static let failing = """
          - name: what differs
            entity: CRMPerson
            payload:
              - { id: 1, first_name: Ada, email: ada@example.com, projects: [{ id: 10, title: Engine }] }
              - { id: 3, first_name: Alan }
              - { id: 4, first_name: Linus, email: linus@example.com }
            expect:
              CRMPerson:
                - { id: 1, firstName: Grace, projects: [10, 11] }
                - { id: 2 }
              CRMProject: [{ id: 10, title: Engine }]

        """

    @Test("passing cases: a line each and the totals on stdout, exit 0, no store written")
    func passes() async throws {
        let workspace = try Self.workspace(Self.passing)
        let result = try await CLIRunner.run(["test", "crm-test.yml"], in: workspace.url)
        #expect(
            result.stdout == """
                ok    crm-test.yml: a person and her nested project
                1 case: 1 passed, 0 failed

                """)
        #expect(result.stderr == "")
        #expect(result.status == 0)
        #expect(!FileManager.default.fileExists(atPath: workspace.url.appendingPathComponent("crm.sqlite").path))
    }

    @Test("a failing case lists each difference with the line that expects it, exit 1")
    func fails() async throws {
        let workspace = try Self.workspace(Self.passing + Self.failing)
        let result = try await CLIRunner.run(["test", "crm-test.yml"], in: workspace.url)
        #expect(
            result.stdout == """
                ok    crm-test.yml: a person and her nested project
                FAIL  crm-test.yml: what differs
                        rejected: payload record 1 (CRMPerson id=3): attribute 'email' (key email): required attribute is missing on a new object
                        CRMPerson 1: firstName: expected Grace, got Ada (crm-test.yml:22:31)
                        CRMPerson 1: projects: expected [10; 11], got [10] (crm-test.yml:22:48)
                        CRMPerson 2: missing (expected at crm-test.yml:23:11)
                        CRMPerson 4: not expected
                2 cases: 1 passed, 1 failed

                """)
        #expect(result.status == 1)
    }

    @Test("--format junit: a JUnit XML report, a failure per failing case")
    func junit() async throws {
        let workspace = try Self.workspace(Self.passing + Self.failing)
        let result = try await CLIRunner.run(["test", "crm-test.yml", "--format", "junit"], in: workspace.url)
        #expect(result.stdout.hasPrefix(#"<?xml version="1.0" encoding="utf-8" standalone="no"?>"#))
        #expect(result.stdout.contains(#"<testsuites name="rmap test" tests="2" failures="1">"#))
        #expect(
            result.stdout.contains(
                #"<testcase classname="crm-test.yml" name="a person and her nested project"></testcase>"#))
        #expect(
            result.stdout.contains(
                """
                      <failure message="5 differences">rejected: payload record 1 (CRMPerson id=3): attribute 'email' (key email): required attribute is missing on a new object
                CRMPerson 1: firstName: expected Grace, got Ada (crm-test.yml:22:31)
                """))
        #expect(result.status == 1)
    }

    @Test("a test file's errors, the push keys' among them, name the file, line and column, with a suggestion; exit 2")
    func badTestFile() async throws {
        let workspace = try Self.workspace(
            """
              - name: typo
                entity: CRMPerson
                payload: []
                expct: {}
              - name: push typos
                entity: CRMPerson
                payload: []
                edits: {}
                edit: { CRMPerson: [{ id: 1 }] }
              - name: request typos
                entity: CRMPerson
                payload: []
                expect_push:
                  - { method: PUT, pth: /people/1.json }
                  - GET

            """)
        let result = try await CLIRunner.run(["test", "crm-test.yml"], in: workspace.url)
        #expect(result.stdout == "")
        #expect(
            result.stderr == """
                crm-test.yml:3:5: a test case needs 'expect' or 'expect_push'
                crm-test.yml:6:5: unknown key 'expct' in a test case (did you mean 'expect'?)
                crm-test.yml:7:5: a test case needs 'expect' or 'expect_push'
                crm-test.yml:10:5: unknown key 'edits' in a test case (did you mean 'edit'?)
                crm-test.yml:11:24: local edits ('edit', 'create', 'delete') need 'expect_push'
                crm-test.yml:16:9: an expected request needs 'path'
                crm-test.yml:16:24: unknown key 'pth' in an expected request (did you mean 'path'?)
                crm-test.yml:17:9: an expected request must be a mapping, found a scalar

                """)
        #expect(result.status == 2)
    }

    @Test("names the case's expectations cannot match are failures with a suggestion")
    func unknownNames() async throws {
        let workspace = try Self.workspace(
            """
              - name: unknown names
                entity: CRMPerson
                payload: [{ id: 1, email: a@example.com }]
                expect:
                  CRMPersons: []
                  CRMPerson: [{ id: 1, frstName: Ada, email: 3 }, { id: x }]

            """)
        let result = try await CLIRunner.run(["test", "crm-test.yml"], in: workspace.url)
        #expect(
            result.stdout == """
                FAIL  crm-test.yml: unknown names
                        crm-test.yml:3:5: unknown entity 'CRMPersons' (did you mean 'CRMPerson'?)
                        crm-test.yml:8:38: 'CRMPerson' has no attribute or relationship 'frstName'
                        CRMPerson 1: email: expected 3, got a@example.com (crm-test.yml:8:50)
                        crm-test.yml:8:61: "x" is not a value of CRMPerson.id (int)
                1 case: 0 passed, 1 failed

                """)
        #expect(result.status == 1)
    }

    static let push = """
          - name: edits planned as rmap diff plans them
            entity: CRMPerson
            payload:
              - { id: 1, first_name: Ada, email: ada@example.com, projects: [{ id: 10, title: Engine }, { id: 11, title: Loom }] }
              - { id: 2, first_name: Grace, email: grace@example.com }
            edit:
              CRMPerson: [{ id: 1, email: ada@lovelace.org }]
            create:
              CRMProject: [{ title: Mill }]
            delete:
              CRMProject: [{ id: 11 }]
            expect_push:
              - { method: POST, path: /projects.json, body: { project: { title: Mill } } }
              - { method: PUT, path: /people/1.json, body: { person: { email: ada@lovelace.org } } }
              - { method: DELETE, path: /projects/11.json }

        """

    @Test(
        "expect_push: an unchanged payload plans no request; an edit, a creation and a deletion plan PUT, POST, DELETE")
    func pushPlan() async throws {
        let workspace = try Self.workspace(
            """
              - name: nothing edited, nothing to push
                entity: CRMPerson
                payload: [{ id: 1, first_name: Ada, email: ada@example.com }]
                expect_push: []

            """ + Self.push)
        let result = try await CLIRunner.run(["test", "crm-test.yml"], in: workspace.url)
        #expect(
            result.stdout == """
                ok    crm-test.yml: nothing edited, nothing to push
                ok    crm-test.yml: edits planned as rmap diff plans them
                2 cases: 2 passed, 0 failed

                """)
        #expect(result.stderr == "")
        #expect(result.status == 0)
    }

    @Test("expect_push: each request that differs, is missing or is not expected, with the line that expects it")
    func pushPlanDiffers() async throws {
        let workspace = try Self.workspace(
            """
              - name: the plan differs
                entity: CRMPerson
                payload: [{ id: 1, first_name: Ada, email: ada@example.com }, { id: 2, email: grace@example.com }]
                edit:
                  CRMPerson: [{ id: 1, firstName: Augusta, email: ada@lovelace.org }, { id: 9, email: x@example.com }]
                delete:
                  CRMPerson: [{ id: 2 }]
                expect_push:
                  - { method: PUT, path: /people/1.json, body: { person: { first_name: Augusta } } }
              - name: nothing pushed where a request is expected
                entity: CRMPerson
                payload: [{ id: 1, email: ada@example.com }]
                expect_push:
                  - { method: DELETE, path: /people/1.json }
              - name: an edit of a relationship
                entity: CRMPerson
                payload: [{ id: 1, email: a@example.com }]
                edit: { CRMPersn: [{ id: 1 }], CRMPerson: [{ id: 1, projects: [] }] }
                expect_push: []

            """)
        let result = try await CLIRunner.run(["test", "crm-test.yml"], in: workspace.url)
        #expect(
            result.stdout == """
                FAIL  crm-test.yml: the plan differs
                        CRMPerson 9: missing (expected at crm-test.yml:7:75)
                FAIL  crm-test.yml: nothing pushed where a request is expected
                        push request 1: missing DELETE /people/1.json (expected at crm-test.yml:16:9)
                FAIL  crm-test.yml: an edit of a relationship
                        crm-test.yml:20:23: unknown entity 'CRMPersn' (did you mean 'CRMPerson'?)
                        crm-test.yml:20:67: 'projects' is a relationship of 'CRMPerson': a local edit sets attributes
                3 cases: 0 passed, 3 failed

                """)
        #expect(result.status == 1)
        let fixed = try Self.workspace(
            """
              - name: the plan differs
                entity: CRMPerson
                payload: [{ id: 1, first_name: Ada, email: ada@example.com }, { id: 2, email: grace@example.com }]
                edit:
                  CRMPerson: [{ id: 1, firstName: Augusta, email: ada@lovelace.org }]
                delete:
                  CRMPerson: [{ id: 2 }]
                expect_push:
                  - { method: PUT, path: /people/1.json, body: { person: { first_name: Augusta } } }

            """)
        let differs = try await CLIRunner.run(["test", "crm-test.yml"], in: fixed.url)
        #expect(
            differs.stdout == """
                FAIL  crm-test.yml: the plan differs
                        push request 1: expected PUT /people/1.json {"person":{"first_name":"Augusta"}}, got PUT /people/1.json {"person":{"first_name":"Augusta","email":"ada@lovelace.org"}} (crm-test.yml:11:9)
                        push request 2: not expected: DELETE /people/2.json
                1 case: 0 passed, 1 failed

                """)
        #expect(differs.status == 1)
    }

    @Test("a mapping file's errors: exit 2, as validate prints them")
    func badMapping() async throws {
        let workspace = try TemporaryDirectory()
        try workspace.write("m.yml", "rmap: 1\nentities:\n  A:\n    atributes: { id: int }\n")
        try workspace.write("t.yml", "mappings: m.yml\ncases: []\n")
        let result = try await CLIRunner.run(["test", "t.yml"], in: workspace.url)
        #expect(
            result.stderr == """
                m.yml:3:3: entity 'A' has no identity: add an 'id' attribute or declare 'identity:'
                m.yml:4:5: unknown key 'atributes' in entity 'A' (did you mean 'attributes'?)

                """)
        #expect(result.stdout == "")
        #expect(result.status == 2)
    }
}

import RMap
import Testing

@Suite("Mapping files combined")
struct MultipleFilesTests {
    static let people = """
        rmap: 1
        naming: {entity_prefix: CRM}
        store: {plugin: sqlite, path: ../rmap.sqlite}
        entities:
          CRMPerson:
            attributes: {id: int}
        """

    @Test func entitiesReferenceEntitiesOfOtherFiles() throws {
        let work = """
            rmap: 1
            store: {plugin: sqlite, path: "../rmap.sqlite"}
            entities:
              CRMProject:
                attributes: {id: int, personId: int}
                relationships:
                  owner: {to_one: CRMPerson, connect: {foreign_key: {personId: id}}}
            """
        let model = try LoaderHarness.load([("mappings/crm.yml", Self.people), ("mappings/work.yml", work)])
        #expect(model.entities.map(\.name) == ["CRMPerson", "CRMProject"])
        #expect(model.entity(named: "CRMProject")?.relationship(named: "owner")?.destination == "CRMPerson")
        #expect(model.entity(named: "CRMProject")?.file == "mappings/work.yml")
        #expect(model.files == ["mappings/crm.yml", "mappings/work.yml"])
        #expect(model.store?.plugin == "sqlite")
        #expect(model.store?.mark == Mark(file: "mappings/crm.yml", line: 3, column: 8))
    }

    @Test func filesInOtherFoldersAgreeOnOneStorePath() throws {
        let nested = "rmap: 1\nstore: {path: ../../rmap.sqlite}\nentities:\n  X: {attributes: {id: int}}\n"
        _ = try LoaderHarness.load([("mappings/crm.yml", Self.people), ("mappings/more/x.yml", nested)])
    }

    @Test(arguments: [
        ("store: {plugin: memory}", "mappings/other.yml:2:8"),
        ("store: {plugin: sqlite, path: rmap.sqlite}", "mappings/other.yml:2:8"),
    ])
    func filesDisagreeingOnTheStore(store: String, at mark: String) {
        let other = "rmap: 1\n\(store)\n"
        #expect(
            LoaderHarness.issues([("mappings/crm.yml", Self.people), ("mappings/other.yml", other)]) == [
                "\(mark): this store differs from the one at mappings/crm.yml:3:8: files must agree on the store"
            ])
    }

    @Test func sameEntityInTwoFilesNamesBothPlaces() {
        let again = "rmap: 1\nentities:\n  Other: {attributes: {id: int}}\n  CRMPerson: {attributes: {id: int}}\n"
        #expect(
            LoaderHarness.issues([("mappings/crm.yml", Self.people), ("mappings/again.yml", again)]) == [
                "mappings/again.yml:4:3: entity 'CRMPerson' is defined twice: here and at mappings/crm.yml:5:3"
            ])
    }

    @Test func issuesOfEveryFileAreCollectedAndSorted() {
        let b = "rmap: 1\nentities:\n  B: {attributes: {id: strng}}\n  C: {attributes: {name: string}}\n"
        let a =
            "rmap: 2\nentities:\n  A:\n    attributes: {id: int}\n    relationships: {b: {to_one: Bee, nested: true}}\n"
        let broken = "rmap: 1\nentities: {\n"
        #expect(
            LoaderHarness.issues([("mappings/b.yml", b), ("mappings/broken.yml", broken), ("mappings/a.yml", a)])
                == [
                    "mappings/a.yml:1:7: unsupported schema version '2' (this rmap reads 'rmap: 1')",
                    "mappings/a.yml:5:33: relationship 'b' of 'A' points to unknown entity 'Bee'",
                    "mappings/b.yml:3:24: unknown type 'strng' for attribute 'id' (did you mean 'string'?)",
                    "mappings/b.yml:4:3: entity 'C' has no identity: add an 'id' attribute or declare 'identity:'",
                    "mappings/broken.yml:3:1: did not find expected node content while parsing a flow node",
                ].sorted(by: ValidationErrorTests.byPosition))
    }

    @Test func errorDescriptionIsOneIssueALine() {
        do {
            _ = try LoaderHarness.load("rmap: 1\nentites: {}\nsorce: {}\n")
            Issue.record("loaded an invalid file")
        } catch {
            #expect(
                error.description == """
                    mappings/crm.yml:2:1: unknown key 'entites' in the mapping file (did you mean 'entities'?)
                    mappings/crm.yml:3:1: unknown key 'sorce' in the mapping file (did you mean 'source'?)
                    """)
        }
    }

    @Test func inflectionsOfOneFileApplyToAll() throws {
        let rules = "rmap: 1\ninflections: {irregular: {cactus: cacti}}\n"
        let plants = "rmap: 1\nentities:\n  Cactus: {attributes: {id: int}}\n"
        let model = try LoaderHarness.load([("mappings/plants.yml", plants), ("mappings/rules.yml", rules)])
        #expect(model.entity(named: "Cactus")?.collection == "cacti")
        #expect(model.inflector.pluralize("cactus") == "cacti")
    }

    @Test func loadReadsFilesFromDisk() throws {
        let path = "\(LoaderHarness.packageRoot)/Tests/Fixtures/mappings/minimal.yml"
        let model = try MappingLoader(environment: [:], catalog: LoaderHarness.catalog).load([path])
        #expect(model.entity(named: "Note")?.collection == "notes")
        #expect(
            model.entity(named: "Note")?.source?.resolvePath("notes.json")
                == "\(LoaderHarness.packageRoot)/Tests/Fixtures/mappings/notes.json")
    }

    @Test func unreadableFileIsAnIssue() {
        do {
            _ = try MappingLoader(environment: [:], catalog: LoaderHarness.catalog).load(["/nonexistent/crm.yml"])
            Issue.record("loaded a missing file")
        } catch {
            #expect(
                error.issues.map(\.description) == [
                    "/nonexistent/crm.yml:1:1: cannot read the mapping file: no such file"
                ])
        }
    }
}

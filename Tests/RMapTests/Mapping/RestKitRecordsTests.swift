import Foundation
import RMapSQLite
import Testing

/// RestKit's cases for relationships, collections and dynamic mapping that rmap takes up in
/// issue 33, each translated from the RestKit test it names and run end to end (`rmap run` or
/// `rmap validate`) into SQLite.
@Suite("RestKit records: union on a to-one, embedded to-ones, nulls, declined types, parent keys")
struct RestKitRecordsTests {

    // MARK: - Assignment policies

    // RKObjectMappingNextGenTest testThatAttemptingToUnionOneToOneRelationshipGeneratesMappingError:
    // "Invalid assignment policy: cannot union a one-to-one relationship."
    @Test("testThatAttemptingToUnionOneToOneRelationshipGeneratesMappingError: a mapping error at the assignment")
    func unionOnAToOne() async throws {
        let workspace = try RunWorkspace([
            "map.yml": """
            rmap: 1
            entities:
              User:
                identity: name
                attributes: { name: string }
                relationships:
                  address: { to_one: Address, nested: true, assignment: union }
              Address:
                source: false
                attributes: { id: int, city: string }
            """
        ])
        let result = try await workspace.rmap(["validate", "map.yml"])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains(
                "map.yml:7:61: 'assignment: union' applies to to-many relationships: to-one relationship 'address' of 'User' holds one object, which a payload replaces"
            ), "\(result.stderr)")
    }

    // MARK: - Embedded to-ones

    static let coordinates = """
        rmap: 1
        source: { plugin: file, path: "{collection}.json" }
        entities:
          User:
            identity: name
            attributes: { name: string }
            relationships:
              coordinate: { to_one: Coordinate, embedded: true }
          Coordinate:
            source: false
            identity: userName
            attributes: { userName: string, latitude: double, longitude: double }
        """

    /// The users' names with the coordinate each one's foreign key links.
    private func coordinates(_ workspace: RunWorkspace) throws -> [[SQLiteValue]] {
        try workspace.rows(
            """
            SELECT u.name, c.user_name, c.latitude, c.longitude FROM users u
            LEFT JOIN coordinates c ON c.user_name = u.coordinate_user_name ORDER BY u.name
            """)
    }

    // RKObjectMappingNextGenTest testAggregatingPropertyMappingUsingNilKeyPath: a coordinate built from
    // the `latitude` and `longitude` of the user's own representation.
    @Test("testAggregatingPropertyMappingUsingNilKeyPath: embedded: true builds the to-one from the record's own keys")
    func aggregatingPropertyMappingUsingNilKeyPath() async throws {
        let workspace = try RunWorkspace([
            "map.yml": Self.coordinates,
            "users.json": #"[{"name": "Blake", "latitude": 125.55, "longitude": 200.5}]"#,
        ])
        let first = try await workspace.runMap()
        #expect(first.stdout.contains("Coordinate        1         1"), "\(first.stdout)")
        #expect(try coordinates(workspace) == [[.text("Blake"), .text("Blake"), .real(125.55), .real(200.5)]])
        // The same record again changes nothing; a moved user moves its coordinate, not a new one.
        _ = try await workspace.runMap()
        try workspace.write("users.json", #"[{"name": "Blake", "latitude": 1.5, "longitude": 200.5}]"#)
        _ = try await workspace.runMap()
        #expect(try coordinates(workspace) == [[.text("Blake"), .text("Blake"), .real(1.5), .real(200.5)]])
        #expect(try workspace.rows("SELECT count(*) FROM coordinates") == [[.integer(1)]])
    }

    // RKObjectMappingNextGenTest testThatAggregatedRelationshipMappingsAreOnlyAppliedIfThereIsAtLeastOneValueInTheRepresentation.
    @Test(
        "testThatAggregatedRelationshipMappingsAreOnlyAppliedIfThereIsAtLeastOneValueInTheRepresentation: no key, no object"
    )
    func aggregatedMappingNeedsAValue() async throws {
        let workspace = try RunWorkspace([
            "map.yml": Self.coordinates,
            "users.json": #"[{"name": "Blake"}, {"name": "Sarah", "longitude": 3}]"#,
        ])
        _ = try await workspace.runMap()
        #expect(
            try coordinates(workspace) == [
                [.text("Blake"), .null, .null, .null], [.text("Sarah"), .text("Sarah"), .null, .real(3)],
            ])
        // A record without the keys leaves the coordinate the store holds.
        try workspace.write("users.json", #"[{"name": "Sarah"}]"#)
        _ = try await workspace.runMap()
        #expect(try coordinates(workspace).last == [.text("Sarah"), .text("Sarah"), .null, .real(3)])
    }

    @Test("an embedded record's bad value rejects its parent, and the store keeps both as they were")
    func embeddedRejection() async throws {
        let workspace = try RunWorkspace([
            "map.yml": Self.coordinates,
            "users.json": #"[{"name": "Blake", "latitude": 1, "longitude": 2}]"#,
        ])
        _ = try await workspace.runMap()
        try workspace.write("users.json", #"[{"name": "Blake", "latitude": "north", "longitude": 5}]"#)
        let rejected = try await workspace.runMap(status: 3)
        #expect(
            rejected.stderr.contains(
                #"rejected: users.json record 0 (Coordinate userName=Blake): attribute 'latitude' (key latitude): cannot read "north" as a double"#
            ), "\(rejected.stderr)")
        #expect(try coordinates(workspace) == [[.text("Blake"), .text("Blake"), .real(1), .real(2)]])
    }

    @Test("a key that is empty or '.' is a mapping error naming embedded: true, never a relationship that maps nothing")
    func emptyKeys() async throws {
        let workspace = try RunWorkspace([
            "map.yml": """
            rmap: 1
            entities:
              User:
                identity: name
                attributes: { name: string }
                relationships:
                  coordinate: { to_one: Coordinate, nested: true, key: "" }
                  position: { to_one: Coordinate, nested: true, key: "." }
              Coordinate:
                source: false
                identity: userName
                attributes: { userName: string, latitude: double }
            """
        ])
        let result = try await workspace.rmap(["validate", "map.yml"])
        #expect(result.status == 2)
        for (line, name) in [("7:60", "coordinate"), ("8:58", "position")] {
            #expect(
                result.stderr.contains(
                    "map.yml:\(line): 'key' of relationship '\(name)' of 'User' is empty (to build 'Coordinate' from the record's own keys, write 'embedded: true')"
                ), "\(result.stderr)")
        }
    }

    // MARK: - Null items

    // RKObjectMappingNextGenTest testShouldIgnoreNSNullInCollections: the `friend` values of users.json,
    // `[null, {"id": 255, "name": "Anthony Stark"}, null]`, map to one user.
    @Test("testShouldIgnoreNSNullInCollections: null items are skipped and counted, not rejected")
    func ignoresNullInCollections() async throws {
        let workspace = try RunWorkspace([
            "map.yml": """
            rmap: 1
            source: { plugin: file, path: "{collection}.json" }
            entities:
              User:
                attributes: { id: int, name: string }
                relationships:
                  friends: { to_many: User, nested: true }
            """,
            "users.json": """
            [null, {"id": 255, "name": "Anthony Stark"}, null,
             {"id": 1, "name": "Blake", "friends": [null, {"id": 2, "name": "Jeff"}]}]
            """,
        ])
        let result = try await workspace.runMap()
        #expect(result.stdout.contains("nulls"), "\(result.stdout)")
        #expect(result.stderr.contains("skipped: 3 null items in arrays of User records"), "\(result.stderr)")
        #expect(
            try workspace.rows("SELECT id, name FROM users ORDER BY id") == [
                [.integer(1), .text("Blake")], [.integer(2), .text("Jeff")], [.integer(255), .text("Anthony Stark")],
            ])
        #expect(try workspace.rows("SELECT * FROM users_friends") == [[.integer(1), .integer(2)]])
        let json = try RunJSON(try await workspace.rmap(["run", "map.yml", "--quiet", "--json"]).stdout)
        #expect(json.status == "ok")
        #expect(json.counts("User")["null_items"] == 3)
        #expect(json.counts("User")["fetched"] == 3)
        #expect(json.counts("User")["rejected"] == 0)
    }

    @Test("null items of a scalar array are skipped as well: each scalar is still one object's identity")
    func nullsInAScalarArray() async throws {
        let workspace = try RunWorkspace([
            "map.yml": """
            rmap: 1
            source: { plugin: file, path: "{collection}.json" }
            entities:
              Post:
                attributes: { id: int }
                relationships:
                  tags: { to_many: Tag, nested: true }
              Tag:
                source: false
                identity: name
                attributes: { name: string }
            """,
            "posts.json": #"[{"id": 1, "tags": ["a", null, "b"]}]"#,
        ])
        let result = try await workspace.runMap()
        #expect(result.stderr.contains("skipped: 1 null item in arrays of Tag records"), "\(result.stderr)")
        #expect(
            try workspace.rows("SELECT tag_name FROM posts_tags ORDER BY tag_name") == [[.text("a")], [.text("b")]])
    }

    // MARK: - Declined types

    static let boys = """
        rmap: 1
        source: { plugin: file, path: "{collection}.json" }
        entities:
          Person:
            identity: name
            type_key: type
            unknown_type: skip
            attributes: { name: string }
            relationships:
              friends: { to_many: Person, nested: true }
          Boy: { extends: Person }
        """

    // RKObjectMappingNextGenTest testShouldBeAbleToDeclineMappingAnObjectByReturningANilObjectMapping,
    // with RestKit's fixture Dynamic/mixed.json.
    @Test("testShouldBeAbleToDeclineMappingAnObjectByReturningANilObjectMapping: unknown_type: skip at the top level")
    func declinesAnObject() async throws {
        let workspace = try RunWorkspace([
            "map.yml": Self.boys,
            "people.json": #"[{"name": "Blake Watters", "type": "Boy"}, {"name": "Sarah", "type": "Girl"}]"#,
        ])
        let result = try await workspace.runMap()
        #expect(
            result.stderr.contains("declined: 1 Person record whose type names no entity (unknown_type: skip)"),
            "\(result.stderr)")
        #expect(try workspace.rows("SELECT name, type FROM people") == [[.text("Blake Watters"), .text("Boy")]])
        let json = try RunJSON(try await workspace.rmap(["run", "map.yml", "--quiet", "--json"]).stdout)
        #expect(json.status == "ok")
        #expect(json.counts("Person")["declined"] == 1)
        #expect(json.totals["rejected"] == 0)
    }

    // RKObjectMappingNextGenTest testShouldBeAbleToDeclineMappingObjectsInARelationshipByReturningANilObjectMapping,
    // with RestKit's fixture Dynamic/friends.json.
    @Test(
        "testShouldBeAbleToDeclineMappingObjectsInARelationshipByReturningANilObjectMapping: the parent is kept"
    )
    func declinesInARelationship() async throws {
        let workspace = try RunWorkspace([
            "map.yml": Self.boys,
            "people.json": """
            {"name": "Blake Watters", "type": "Boy",
             "friends": [{"name": "John Doe", "type": "Boy"}, {"name": "Jane Doe", "type": "Girl"}]}
            """,
        ])
        _ = try await workspace.runMap()
        #expect(
            try workspace.rows("SELECT name, type FROM people ORDER BY name") == [
                [.text("Blake Watters"), .text("Boy")], [.text("John Doe"), .text("Boy")],
            ])
        #expect(
            try workspace.rows("SELECT person_name, friend_name FROM people_friends")
                == [[.text("Blake Watters"), .text("John Doe")]])
    }

    @Test("without unknown_type: skip an unknown type still rejects the record, parent and all")
    func unknownTypeRejectsByDefault() async throws {
        let workspace = try RunWorkspace([
            "map.yml": Self.boys.replacingOccurrences(of: "    unknown_type: skip\n", with: ""),
            "people.json": #"{"name": "Blake", "type": "Boy", "friends": [{"name": "Jane", "type": "Girl"}]}"#,
        ])
        let result = try await workspace.runMap(status: 3)
        #expect(result.stderr.contains("unknown type 'Girl' for 'Person'"), "\(result.stderr)")
        #expect(try workspace.rows("SELECT count(*) FROM people") == [[.integer(0)]])
    }

    // MARK: - Parent keys

    static let humans = """
        rmap: 1
        source: { plugin: file, path: "{collection}.json" }
        entities:
          Human:
            collection: humans
            identity: [houseID, name]
            attributes: { name: string, houseID: { type: int, key: house_id } }
            relationships:
              friends: { to_many: Human, nested: true, identify_nested_by_parent_key: { houseID: houseID } }
        """

    // RKObjectMappingNextGenTest testIdentifyingNestedObjectsUsingParentRepresentationTraversal: the friend
    // "Jeff Arena" takes `@parent.house_id` into its identity [houseID, name] and so is the stored Jeff of
    // house 23456, not the one of house 99999 nor a new one.
    @Test("testIdentifyingNestedObjectsUsingParentRepresentationTraversal: the parent's key fills the child's identity")
    func identifiesNestedObjectsByParentKey() async throws {
        let workspace = try RunWorkspace([
            "map.yml": Self.humans,
            "humans.json": #"[{"name": "Jeff Arena", "house_id": 99999}, {"name": "Jeff Arena", "house_id": 23456}]"#,
        ])
        _ = try await workspace.runMap()
        try workspace.write(
            "humans.json", #"{"name": "Blake Watters", "house_id": 23456, "friends": [{"name": "Jeff Arena"}]}"#)
        _ = try await workspace.runMap()
        #expect(try workspace.rows("SELECT count(*) FROM humans") == [[.integer(3)]])
        #expect(
            try workspace.rows("SELECT human_house_id, human_name, friend_house_id, friend_name FROM humans_friends")
                == [[.integer(23456), .text("Blake Watters"), .integer(23456), .text("Jeff Arena")]])
    }

    @Test("identify_nested_by_parent_key: true fills the inverse to-one's foreign key; the record's own key wins")
    func parentKeyFromTheInverse() async throws {
        let workspace = try RunWorkspace([
            "map.yml": """
            rmap: 1
            source: { plugin: file, path: "{collection}.json" }
            entities:
              Project:
                attributes: { id: int }
                relationships:
                  tasks: { to_many: Task, nested: true, inverse: project, identify_nested_by_parent_key: true }
              Task:
                source: false
                identity: [projectId, position]
                attributes: { projectId: int, position: int, title: string }
                relationships:
                  project: { to_one: Project, connect: { foreign_key: { projectId: id } } }
            """,
            "projects.json": """
            [{"id": 1, "tasks": [{"position": 1, "title": "a"}, {"position": 2, "title": "b"}]},
             {"id": 2, "tasks": [{"position": 1, "title": "c"}, {"position": 3, "project_id": 1, "title": "d"}]}]
            """,
        ])
        _ = try await workspace.runMap()
        #expect(
            try workspace.rows("SELECT project_id, position, title FROM tasks ORDER BY project_id, position") == [
                [.integer(1), .integer(1), .text("a")], [.integer(1), .integer(2), .text("b")],
                [.integer(1), .integer(3), .text("d")], [.integer(2), .integer(1), .text("c")],
            ])
        // Without the option the same tasks have no identity: each is rejected, with its project.
        try workspace.edit("map.yml", replacing: ", identify_nested_by_parent_key: true", with: "")
        let rejected = try await workspace.runMap(status: 3)
        #expect(
            rejected.stderr.contains("identity attribute 'projectId' is missing: the record cannot be merged"),
            "\(rejected.stderr)")
    }
}

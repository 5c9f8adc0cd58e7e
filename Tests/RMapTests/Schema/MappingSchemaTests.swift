import RMapPostgres
import RMapSQLite
import Testing

@testable import RMap
@testable import RMapHTTP

/// The schema names exactly the keys the loader accepts, where it accepts them, each with a
/// description: a key added to a loader table without the schema fails here.
@Suite("MappingSchema: the keys of the loader")
struct MappingSchemaTests {
    /// The plugins `rmap` has.
    static let catalog: PluginCatalog = {
        let registry = PluginRegistry.standard()
        registry.registerSQLite()
        registry.registerPostgres()
        registry.registerHTTP()
        return registry.catalog
    }()
    /// Their schema.
    static let document = MappingSchema.document(catalog: catalog)

    /// The object at a path of keys and array indexes.
    static func node(_ path: [String]) throws -> JSONObject {
        var current = document
        for step in path {
            if let index = Int(step) {
                current = try #require(current.array?[index], "\(path): no item \(step)")
            } else {
                current = try #require(current.object?[step], "\(path): no key \(step)")
            }
        }
        return try #require(current.object, "\(path) is not an object")
    }

    /// The property names of the object schema at a path.
    static func properties(_ path: [String]) throws -> Set<String> {
        Set(try node(path + ["properties"]).keys)
    }

    @Test("the file level, naming and inflections")
    func fileLevel() throws {
        #expect(try Self.properties([]) == Set(FileSettings.topLevelKeys))
        #expect(try Self.properties(["properties", "naming"]) == Set(FileSettings.namingKeys))
        #expect(try Self.properties(["properties", "inflections"]) == Set(FileSettings.inflectionKeys))
        let required = try #require(Self.node([])["required"]?.array)
        #expect(required == [.string("rmap")])
    }

    @Test("entities and the blocks inside them")
    func entities() throws {
        let entity = ["$defs", "entity", "properties"]
        #expect(try Self.properties(["$defs", "entity"]) == Set(DeclaredEntity.keys))
        #expect(try Self.properties(entity + ["push"]) == Set(EntityDecoder.pushKeys))
        #expect(try Self.properties(entity + ["incremental"]) == Set(EntityDecoder.incrementalKeys))
        #expect(try Self.properties(entity + ["records", "anyOf", "1"]) == Set(EntityDecoder.keyedRecordsKeys))
        #expect(try Self.properties(entity + ["delete_when"]) == [DeletionDecoder.missingFromParent])
        #expect(try Self.properties(["$defs", "attribute", "anyOf", "3"]) == Set(DeclaredEntity.attributeKeys))
        #expect(try Self.properties(["$defs", "relationship"]) == Set(RelationshipDecoder.keys))
        #expect(try Self.properties(["$defs", "connect"]) == Set(RelationshipDecoder.connectKeys))
        #expect(try Self.properties(["$defs", "condition", "anyOf", "5"]) == Set(PredicateDecoder.conditionKeys))
        #expect(try Self.properties(["$defs", "transformer", "anyOf", "1"]) == Set(ExecTransformer.options))
    }

    @Test("the enums are the loader's")
    func enums() throws {
        let entity = ["$defs", "entity", "properties"]
        func values(_ path: [String]) throws -> [String] {
            try #require(Self.node(path)["enum"]?.array).compactMap(\.string)
        }
        #expect(try values(entity + ["on_conflict"]) == ConflictPolicy.allCases.map(\.rawValue))
        #expect(try values(entity + ["orphans"]) == OrphanPolicy.allCases.map(\.rawValue))
        #expect(try values(["properties", "naming", "properties", "root"]) == RootStyle.allCases.map(\.rawValue))
        let types = try values(["$defs", "attributeType"])
        for name in ["int", "[int]", "datetime", "[json]"] {
            #expect(AttributeType(name: name) != nil && types.contains(name))
        }
        #expect(types.allSatisfy { AttributeType(name: $0) != nil })
        #expect(try values(["$defs", "transformer", "anyOf", "0"]).contains("squish"))
    }

    @Test("each plugin's block lists its options, described", arguments: ["source", "store", "stage"])
    func plugins(kind: String) throws {
        let plugins =
            ["source": Self.catalog.sources, "store": Self.catalog.stores, "stage": Self.catalog.stages][kind] ?? [:]
        #expect(!plugins.isEmpty)
        let rules = try #require(Self.node(["$defs", kind])["allOf"]?.array)
        #expect(rules.count == plugins.count)
        for rule in rules {
            let plugin = try #require(
                rule.object?["if"]?.object?["properties"]?.object?["plugin"]?.object?["const"]?.string)
            let options = try #require(rule.object?["then"]?.object?["properties"]?.object?.keys)
            #expect(Set(options) == Set(["plugin"] + (plugins[plugin] ?? [])), "\(kind) \(plugin)")
            for option in plugins[plugin] ?? [] {
                #expect(
                    PluginOptionSchemas.isDescribed(kind: kind, plugin: plugin, option: option),
                    "\(kind) \(plugin) \(option)")
            }
        }
    }

    @Test("the http source's nested blocks")
    func httpBlocks() throws {
        let rules = try #require(Self.node(["$defs", "source"])["allOf"]?.array)
        let http = try #require(
            rules.first {
                $0.object?["if"]?.object?["properties"]?.object?["plugin"]?.object?["const"] == .string("http")
            })
        let options = try #require(http.object?["then"]?.object?["properties"]?.object)
        func keys(_ option: String, _ inner: String? = nil) throws -> Set<String> {
            var block = try #require(options[option]?.object)
            if let inner { block = try #require(block["properties"]?.object?[inner]?.object) }
            return Set(try #require(block["properties"]?.object?.keys))
        }
        #expect(try keys("window") == DateWindow.keys)
        let formats = try #require(options["format"]?.object?["enum"]?.array).compactMap(\.string)
        #expect(formats == DocumentFormat.allCases.map(\.rawValue))
        #expect(try keys("auth", "oauth2") == OAuth2Grant.keys)
        #expect(try keys("auth") == ["basic", "bearer", "api_key", "oauth2"])
    }

    @Test("every property has a description")
    func described() {
        var undescribed: [String] = []
        /// Walks a schema's keywords; an `if` only tests a block, and describes nothing.
        func walk(_ value: JSONValue, _ path: String) {
            switch value {
            case .object(let schema):
                for (keyword, member) in schema.members where keyword != "if" {
                    guard keyword == "properties", let properties = member.object else {
                        walk(member, "\(path)/\(keyword)")
                        continue
                    }
                    for (name, property) in properties.members {
                        if property.object?["description"]?.string?.isEmpty != false {
                            undescribed.append("\(path)/\(name)")
                        }
                        walk(property, "\(path)/\(name)")
                    }
                }
            case .array(let items):
                for (index, item) in items.enumerated() { walk(item, "\(path)/\(index)") }
            default: break
            }
        }
        walk(Self.document, "")
        #expect(undescribed == [])
    }
}

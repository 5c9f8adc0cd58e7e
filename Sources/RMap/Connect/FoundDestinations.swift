/// The destinations one source's reference found, in order: a lone one
/// (the usual foreign key's) without an array.
enum FoundDestinations {
    case none
    case one(GraphObject)
    case several([GraphObject])

    /// The objects of an array.
    init(_ objects: [GraphObject]) {
        switch objects.count {
        case 0: self = .none
        case 1: self = .one(objects[0])
        default: self = .several(objects)
        }
    }

    var count: Int {
        switch self {
        case .none: 0
        case .one: 1
        case .several(let objects): objects.count
        }
    }

    /// The first object found.
    var first: GraphObject? {
        switch self {
        case .none: nil
        case .one(let object): object
        case .several(let objects): objects.first
        }
    }

    /// The objects as an array.
    var objects: [GraphObject] {
        switch self {
        case .none: []
        case .one(let object): [object]
        case .several(let objects): objects
        }
    }

    /// Adds an object at the end.
    mutating func append(_ object: GraphObject) {
        switch self {
        case .none:
            self = .one(object)
        case .one(let first):
            self = .several([first, object])
        case .several(var objects):
            self = .none  // leaves `objects` the array's only holder: appended in place
            objects.append(object)
            self = .several(objects)
        }
    }

    /// Drops objects found earlier in the list, keeping the order of first appearance.
    mutating func removeRepeats() {
        guard case .several(let objects) = self else { return }
        // A few objects (the usual handful of a key array) are compared pairwise, without a set.
        if objects.count <= 16 {
            guard objects.indices.contains(where: { objects[..<$0].contains(objects[$0]) }) else { return }
            var kept: [GraphObject] = []
            kept.reserveCapacity(objects.count)
            for object in objects where !kept.contains(object) { kept.append(object) }
            self = FoundDestinations(kept)
        } else {
            var seen = Set<GraphObject>()
            self = FoundDestinations(objects.filter { seen.insert($0).inserted })
        }
    }
}

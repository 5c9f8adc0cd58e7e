/// The ordered requests that send a store's local changes back (MAPPING.md §6).
///
/// New parents come before the children that need their identity (a child
/// whose foreign key holds a new parent's temporary identity), deletions of
/// children before their parents; everything else keeps the order creations,
/// updates, deletions, table by table. ``PlannedRequest/dependencies`` name
/// what must succeed first, so independent requests may run concurrently.
///
/// ```swift
/// let plan = try sync.plan()
/// for request in plan.requests { print(request.line) }
/// print(plan.summary)   // 1 request: 0 POST, 1 PUT, 0 DELETE
/// ```
public struct PushPlan: Sendable, Equatable {
    /// The requests, in an order that respects every dependency.
    public var requests: [PlannedRequest]

    /// Creates a plan.
    public init(requests: [PlannedRequest]) {
        self.requests = requests
    }

    /// How many requests use each method (`POST`, `PUT`, `PATCH`, `DELETE`; zero included).
    public var counts: [String: Int] {
        var counts = ["POST": 0, "PUT": 0, "PATCH": 0, "DELETE": 0]
        for request in requests { counts[request.method, default: 0] += 1 }
        return counts
    }

    /// One line: `3 requests: 1 POST, 1 PUT, 1 DELETE` (`PATCH` appears when the plan has some).
    public var summary: String {
        let counts = counts
        let methods = ["POST", "PUT", "PATCH", "DELETE"].filter { $0 != "PATCH" || counts[$0, default: 0] > 0 }
        let noun = requests.count == 1 ? "request" : "requests"
        return "\(requests.count) \(noun): " + methods.map { "\(counts[$0, default: 0]) \($0)" }.joined(separator: ", ")
    }

    /// The plan as text: one request a line, then the summary.
    public var text: String {
        (requests.map(\.line) + [summary]).map { $0 + "\n" }.joined()
    }

    /// The plan as one JSON document: `{"requests": [{"method", "path", "body"}], "counts": {...}}`.
    public var json: JSONValue {
        let items = requests.map { request in
            JSONValue.object(
                JSONObject([
                    ("method", .string(request.method)), ("path", .string(request.path)),
                    ("body", request.body ?? .null),
                ]))
        }
        let counts = counts
        let countMembers = ["POST", "PUT", "PATCH", "DELETE"].map { ($0, JSONValue.number(String(counts[$0] ?? 0))) }
        return .object(
            JSONObject([
                ("requests", .array(items)),
                ("counts", .object(JSONObject(countMembers + [("total", .number(String(requests.count)))]))),
            ]))
    }
}

/// Orders changes by their dependencies.
struct PlanBuilder {
    let sync: SyncSchema
    let builder: RequestBuilder

    func plan(_ changes: [SyncChange]) throws -> PushPlan {
        let rank: [SyncChange.Kind: Int] = [.create: 0, .update: 1, .delete: 2]
        let ordered = changes.enumerated().sorted { lhs, rhs in
            let left = rank[lhs.element.kind]!
            let right = rank[rhs.element.kind]!
            if left != right { return left < right }
            return lhs.offset < rhs.offset
        }.map(\.element)
        let before = try dependencies(ordered)
        // Depth first in the preferred order: each change right after what it needs.
        var position: [Int: Int] = [:]
        var order: [Int] = []
        var visiting = Set<Int>()
        func visit(_ index: Int) {
            guard position[index] == nil, visiting.insert(index).inserted else { return }
            for dependency in before[index] { visit(dependency) }
            position[index] = order.count
            order.append(index)
        }
        for index in ordered.indices { visit(index) }
        return PushPlan(
            requests: try order.map { index in
                var request = try builder.request(for: ordered[index])
                request.dependencies = before[index].compactMap { position[$0] }.filter { $0 < position[index]! }
                    .sorted()
                return request
            })
    }

    /// For each change, the changes that must be sent before it.
    private func dependencies(_ changes: [SyncChange]) throws -> [[Int]] {
        var created: [Int: [IdentityKey: Int]] = [:]
        var deleted: [Int: [IdentityKey: Int]] = [:]
        var tables: [Int] = []
        for (index, change) in changes.enumerated() {
            let table = try sync.entity(named: change.entity).tableIndex
            tables.append(table)
            let key = IdentityKey(change.identity)
            guard !key.isIncomplete else { continue }
            switch change.kind {
            case .create: created[table, default: [:]][key] = index
            case .delete: deleted[table, default: [:]][key] = index
            case .update: break
            }
        }
        var before = Array(repeating: [Int](), count: changes.count)
        for (index, change) in changes.enumerated() {
            for group in sync.references where group.table == tables[index] {
                let key = IdentityKey(group.columns.map { change.values[$0] })
                guard !key.isIncomplete else { continue }
                if change.kind == .delete {
                    // A deleted child goes before its deleted parent.
                    if let parent = deleted[group.destination]?[key], parent != index { before[parent].append(index) }
                } else if let parent = created[group.destination]?[key], parent != index {
                    before[index].append(parent)
                }
            }
        }
        try orderMovedMembers(changes, before: &before)
        return before
    }

    /// Two updates whose to-many linkages gain or lose the same member (a task moved from one
    /// project's `tasks` to another's) go one after the other: each replaces its full linkage,
    /// and a server that applies the two at once unlinks what the other just linked.
    private func orderMovedMembers(_ changes: [SyncChange], before: inout [[Int]]) throws {
        var lastMover: [Int: [IdentityKey: Int]] = [:]  // per join table: the last update moving each member
        for (index, change) in changes.enumerated() where change.kind == .update {
            guard let base = change.base else { continue }
            let entity = try sync.entity(named: change.entity)
            for linked in entity.linkedArrays where change.columns.contains(linked.column) {
                let now = Set(LinkedArrayValues.elements(change.values[linked.column]).map { IdentityKey([$0]) })
                let then = Set(LinkedArrayValues.elements(base[linked.column]).map { IdentityKey([$0]) })
                for member in now.symmetricDifference(then) {
                    if let earlier = lastMover[linked.join]?[member], !before[index].contains(earlier) {
                        before[index].append(earlier)
                    }
                    lastMover[linked.join, default: [:]][member] = index
                }
            }
        }
    }
}

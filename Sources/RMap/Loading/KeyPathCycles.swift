/// Finds cycles among key-path connections: a path through `owner` waits for
/// `owner` to be connected, so `a` through `b` and `b` through `a` can never resolve.
struct KeyPathCycles {
    let diagnostics: Diagnostics

    private struct Node: Hashable {
        var entity: String
        var relationship: String
    }

    func check(_ entities: [EntityMapping]) {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var edges: [Node: [Node]] = [:]
        var marks: [Node: Mark] = [:]
        for entity in entities {
            for relationship in entity.relationships {
                guard case .keyPath(let path)? = relationship.connection?.rule else { continue }
                let node = Node(entity: entity.name, relationship: relationship.name)
                marks[node] = relationship.connection?.mark
                var current = entity
                for segment in path {
                    guard let step = current.relationship(named: segment), let next = byName[step.destination] else {
                        break
                    }
                    edges[node, default: []].append(Node(entity: current.name, relationship: segment))
                    current = next
                }
            }
        }
        var state: [Node: Bool] = [:]  // false: on the stack, true: done
        for start in edges.keys.sorted(by: { ($0.entity, $0.relationship) < ($1.entity, $1.relationship) }) {
            visit(start, edges: edges, marks: marks, state: &state, stack: [])
        }
    }

    private func visit(
        _ node: Node, edges: [Node: [Node]], marks: [Node: Mark], state: inout [Node: Bool], stack: [Node]
    ) {
        if state[node] == true { return }
        if state[node] == false {
            let cycle = stack.drop { $0 != node } + [node]
            let names = cycle.map { "\($0.entity).\($0.relationship)" }.joined(separator: " -> ")
            diagnostics.error(marks[node] ?? Mark(file: "", line: 1, column: 1), "key-path connection cycle: \(names)")
            return
        }
        state[node] = false
        for next in edges[node] ?? [] where marks[next] != nil {
            visit(next, edges: edges, marks: marks, state: &state, stack: stack + [node])
        }
        state[node] = true
    }
}

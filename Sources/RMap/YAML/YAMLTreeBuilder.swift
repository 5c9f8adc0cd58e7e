/// Turns the event stream into nodes, resolving aliases and `<<` merge keys,
/// within ``YAMLParser``'s limits: one document, ``YAMLParser/maxDepth``
/// levels, an ``AliasBudget``.
struct TreeBuilder {
    let file: String
    private var anchors: [String: YAMLNode] = [:]
    private var budget = AliasBudget()

    init(file: String) {
        self.file = file
    }

    /// The stream's one document, or `nil` when it has none.
    ///
    /// - Throws: ``YAMLError`` at the start of a second document, among others.
    mutating func document(from events: EventReader) throws(YAMLError) -> YAMLNode? {
        var root: YAMLNode?
        var started = false
        while true {
            switch try events.next() {
            case .streamStart, .documentEnd: continue
            case .streamEnd: return root
            case .documentStart(let mark):
                guard !started else {
                    throw YAMLError(
                        mark: mark, problem: "a second YAML document: a mapping file holds one (remove the '---')")
                }
                started = true
            case let event: root = try node(startingWith: event, events: events, depth: 0)
            }
        }
    }

    /// The node starting with `event`, inside `depth` sequences and mappings.
    private mutating func node(startingWith event: YAMLEvent, events: EventReader, depth: Int) throws(YAMLError)
        -> YAMLNode
    {
        let start = budget.nodes
        switch event {
        case .alias(let anchor, let mark):
            guard let node = anchors[anchor] else {
                throw YAMLError(mark: mark, problem: "unknown alias '*\(anchor)'")
            }
            try budget.charge(anchor, at: mark)
            return node
        case .scalar(let scalar, let anchor):
            budget.countNode()
            return remember(.scalar(scalar), as: anchor, from: start)
        case .sequenceStart(let anchor, let mark):
            try enter(depth + 1, at: mark)
            var items: [YAMLNode] = []
            while true {
                let next = try events.next()
                if case .sequenceEnd = next { break }
                items.append(try node(startingWith: next, events: events, depth: depth + 1))
            }
            return remember(.sequence(items, mark), as: anchor, from: start)
        case .mappingStart(let anchor, let mark):
            try enter(depth + 1, at: mark)
            var pairs: [YAMLPair] = []
            var merged: [YAMLPair] = []
            while true {
                let next = try events.next()
                if case .mappingEnd = next { break }
                let key = try node(startingWith: next, events: events, depth: depth + 1)
                let value = try node(startingWith: try events.next(), events: events, depth: depth + 1)
                if let scalar = key.scalar, scalar.style == .plain, scalar.text == "<<" {
                    merged += try mergePairs(value, at: scalar.mark)
                } else {
                    pairs.append(YAMLPair(key: key, value: value))
                }
            }
            var seen = Set(pairs.compactMap { $0.key.scalar?.text })
            for pair in merged {
                guard let text = pair.key.scalar?.text, seen.insert(text).inserted else { continue }
                pairs.append(pair)
            }
            return remember(.mapping(pairs, mark), as: anchor, from: start)
        default:
            throw YAMLError(mark: Mark(file: file, line: 1, column: 1), problem: "unexpected YAML event")
        }
    }

    /// The pairs a `<<` value brings, earlier mappings of a list first; errors point at the `<<`
    /// key, since an alias's node keeps the mark of its anchor.
    private func mergePairs(_ value: YAMLNode, at mark: Mark) throws(YAMLError) -> [YAMLPair] {
        switch value {
        case .mapping(let pairs, _): return pairs
        case .sequence(let items, _):
            var pairs: [YAMLPair] = []
            for item in items {
                guard let itemPairs = item.mapping else {
                    throw YAMLError(
                        mark: mark, problem: "a '<<' merge takes mappings, found \(item.kindName) in the list")
                }
                pairs += itemPairs
            }
            return pairs
        default:
            throw YAMLError(
                mark: mark, problem: "a '<<' merge takes a mapping or a list of mappings, found \(value.kindName)")
        }
    }

    /// Counts a sequence or mapping that opens level `depth`.
    ///
    /// - Throws: ``YAMLError`` at `mark` past ``YAMLParser/maxDepth``.
    private mutating func enter(_ depth: Int, at mark: Mark) throws(YAMLError) {
        guard depth <= YAMLParser.maxDepth else {
            throw YAMLError(mark: mark, problem: "nested deeper than \(YAMLParser.maxDepth)")
        }
        budget.countNode()
    }

    private mutating func remember(_ node: YAMLNode, as anchor: String?, from start: Int) -> YAMLNode {
        if let anchor { anchors[anchor] = node }
        budget.anchor(anchor, from: start)
        return node
    }
}

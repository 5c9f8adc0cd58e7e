/// Turns the event stream into nodes, resolving aliases and `<<` merge keys.
struct TreeBuilder {
    let file: String
    private var anchors: [String: YAMLNode] = [:]

    init(file: String) {
        self.file = file
    }

    mutating func document(from events: EventReader) throws(YAMLError) -> YAMLNode? {
        while true {
            switch try events.next() {
            case .streamStart, .documentStart: continue
            case .streamEnd, .documentEnd: return nil
            case let event: return try node(startingWith: event, events: events)
            }
        }
    }

    private mutating func node(startingWith event: YAMLEvent, events: EventReader) throws(YAMLError)
        -> YAMLNode
    {
        switch event {
        case .alias(let anchor, let mark):
            guard let node = anchors[anchor] else {
                throw YAMLError(mark: mark, problem: "unknown alias '*\(anchor)'")
            }
            return node
        case .scalar(let scalar, let anchor):
            return remember(.scalar(scalar), as: anchor)
        case .sequenceStart(let anchor, let mark):
            var items: [YAMLNode] = []
            while true {
                let next = try events.next()
                if case .sequenceEnd = next { break }
                items.append(try node(startingWith: next, events: events))
            }
            return remember(.sequence(items, mark), as: anchor)
        case .mappingStart(let anchor, let mark):
            var pairs: [YAMLPair] = []
            var merged: [YAMLPair] = []
            while true {
                let next = try events.next()
                if case .mappingEnd = next { break }
                let key = try node(startingWith: next, events: events)
                let value = try node(startingWith: try events.next(), events: events)
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
            return remember(.mapping(pairs, mark), as: anchor)
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

    private mutating func remember(_ node: YAMLNode, as anchor: String?) -> YAMLNode {
        if let anchor { anchors[anchor] = node }
        return node
    }
}

internal import CYAML
import Foundation

/// Parses YAML text into a ``YAMLNode`` tree through libyaml's event API.
///
/// ```swift
/// let node = try YAMLParser.parse("rmap: 1\n", file: "crm.yml")
/// ```
public enum YAMLParser {
    /// Parses the first document of `text`.
    ///
    /// - Parameters:
    ///   - text: the YAML source.
    ///   - file: the path named in marks and errors.
    /// - Returns: the document's root node, or `nil` for an empty stream.
    /// - Throws: ``YAMLError`` with libyaml's problem and its position.
    public static func parse(_ text: String, file: String) throws(YAMLError) -> YAMLNode? {
        let events = EventReader(text: text, file: file)
        var builder = TreeBuilder(file: file)
        return try builder.document(from: events)
    }

    /// Reads and parses a file.
    ///
    /// - Throws: ``YAMLError`` when the file cannot be read or parsed.
    public static func parse(contentsOf path: String) throws(YAMLError) -> YAMLNode? {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw YAMLError(mark: Mark(file: path, line: 1, column: 1), problem: "cannot read the file")
        }
        return try parse(String(decoding: data, as: UTF8.self), file: path)
    }
}

// MARK: - Events

/// One libyaml event, copied out of C memory.
enum YAMLEvent {
    case streamStart, streamEnd, documentStart, documentEnd
    case alias(anchor: String, mark: Mark)
    case scalar(YAMLScalar, anchor: String?)
    case sequenceStart(anchor: String?, mark: Mark)
    case sequenceEnd
    case mappingStart(anchor: String?, mark: Mark)
    case mappingEnd
}

/// Owns a heap-allocated `yaml_parser_t` and the input it points into.
final class EventReader {
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let input: UnsafeMutableBufferPointer<UInt8>
    private let file: String

    init(text: String, file: String) {
        self.file = file
        var utf8 = Array(text.utf8)
        if utf8.isEmpty { utf8 = [0x0A] }
        input = .allocate(capacity: utf8.count)
        _ = input.initialize(from: utf8)
        parser = .allocate(capacity: 1)
        yaml_parser_initialize(parser)
        yaml_parser_set_input_string(parser, input.baseAddress, input.count)
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
        input.deallocate()
    }

    /// The next event, or a ``YAMLError`` with libyaml's problem.
    func next() throws(YAMLError) -> YAMLEvent {
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) == 1 else { throw parserError() }
        defer { yaml_event_delete(&event) }
        let mark = Mark(
            file: file, line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
        switch event.type {
        case YAML_STREAM_START_EVENT: return .streamStart
        case YAML_STREAM_END_EVENT: return .streamEnd
        case YAML_DOCUMENT_START_EVENT: return .documentStart
        case YAML_DOCUMENT_END_EVENT: return .documentEnd
        case YAML_ALIAS_EVENT:
            return .alias(anchor: string(event.data.alias.anchor) ?? "", mark: mark)
        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            let text = String(
                decoding: UnsafeBufferPointer(start: data.value, count: Int(data.length)), as: UTF8.self)
            let scalar = YAMLScalar(text: text, style: style(data.style), mark: mark)
            return .scalar(scalar, anchor: string(data.anchor))
        case YAML_SEQUENCE_START_EVENT:
            return .sequenceStart(anchor: string(event.data.sequence_start.anchor), mark: mark)
        case YAML_SEQUENCE_END_EVENT: return .sequenceEnd
        case YAML_MAPPING_START_EVENT:
            return .mappingStart(anchor: string(event.data.mapping_start.anchor), mark: mark)
        default: return .mappingEnd
        }
    }

    private func parserError() -> YAMLError {
        let problemMark = parser.pointee.problem_mark
        var problem = string(parser.pointee.problem) ?? "invalid YAML"
        if let context = string(parser.pointee.context) { problem = "\(problem) \(context)" }
        let mark = Mark(file: file, line: Int(problemMark.line) + 1, column: Int(problemMark.column) + 1)
        return YAMLError(mark: mark, problem: problem)
    }

    private func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    private func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }

    private func style(_ style: yaml_scalar_style_t) -> YAMLScalar.Style {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: .literal
        case YAML_FOLDED_SCALAR_STYLE: .folded
        default: .plain
        }
    }
}

// MARK: - Tree

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

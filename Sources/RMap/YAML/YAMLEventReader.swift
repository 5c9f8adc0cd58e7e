internal import CYAML

/// One libyaml event, copied out of C memory.
enum YAMLEvent {
    case streamStart, streamEnd, documentEnd
    case documentStart(mark: Mark)
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
        case YAML_DOCUMENT_START_EVENT: return .documentStart(mark: mark)
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
        return YAMLError(mark: mark, problem: YAMLHint.explained(problem))
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

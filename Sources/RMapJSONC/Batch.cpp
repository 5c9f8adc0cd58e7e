// Splits a payload stream into complete top-level values, so that each can be
// parsed whole by simdjson while the file is read in chunks.
//
// simdjson 3.0.1 streams only whitespace-separated documents (iterate_many),
// not the elements of one large array, and On Demand needs a complete document
// in memory. So for an array this finds where each element ends: it tracks only
// string quotes, escapes and bracket depth, and leaves every other check to
// simdjson, which parses and validates each element it hands over.
#include "Parser.hpp"

#include <cstdint>
#include <cstring>

namespace {

enum Phase { before_array = 0, after_open = 1, after_comma = 2, after_element = 3, after_close = 4 };

bool ends_scalar(uint8_t byte) {
    return rmj_is_space(byte) || byte == ',' || byte == ']' || byte == '}' || byte == '[' || byte == '{'
        || byte == ':' || byte == '"';
}

/// The end of the string whose opening quote is at `start`, or 0 when it is cut off.
size_t string_end(const uint8_t *bytes, size_t start, size_t length) {
    size_t i = start + 1;
    while (i < length) {
        const void *stop = std::memchr(bytes + i, '"', length - i);
        if (!stop) { return 0; }
        const size_t quote = static_cast<size_t>(static_cast<const uint8_t *>(stop) - bytes);
        size_t backslashes = 0;
        while (quote - backslashes > start + 1 && bytes[quote - backslashes - 1] == '\\') { backslashes++; }
        if (backslashes % 2 == 0) { return quote + 1; }
        i = quote + 1;
    }
    return 0;
}

} // namespace

size_t rmj_value_end(const uint8_t *bytes, size_t start, size_t length, size_t max_depth, size_t *too_deep) {
    const uint8_t first = bytes[start];
    if (first == '"') { return string_end(bytes, start, length); }
    if (first != '[' && first != '{') {
        size_t i = start + 1;
        while (i < length && !ends_scalar(bytes[i])) { i++; }
        return i < length ? i : 0;
    }
    size_t depth = 0;
    size_t i = start;
    while (i < length) {
        const uint8_t byte = bytes[i];
        if (byte == '"') {
            i = string_end(bytes, i, length);
            if (i == 0) { return 0; }
            continue;
        }
        if (byte == '[' || byte == '{') {
            if (++depth > max_depth) {
                *too_deep = i;
                return 0;
            }
        } else if ((byte == ']' || byte == '}') && --depth == 0) {
            return i + 1;
        }
        i++;
    }
    return 0;
}

size_t rmj_control_character(const uint8_t *bytes, size_t length) {
    size_t i = 0;
    while (i < length) {
        const void *found = std::memchr(bytes + i, '"', length - i);
        if (!found) { return length; }
        const size_t quote = static_cast<size_t>(static_cast<const uint8_t *>(found) - bytes);
        const size_t end = string_end(bytes, quote, length);
        for (i = quote + 1; i < (end ? end : length); i++) {
            if (bytes[i] < 0x20) { return i; }
        }
        if (!end) { return length; }
    }
    return length;
}

namespace {

/// Moves a line and column position over `bytes[from..<to]`.
void advance(const uint8_t *bytes, size_t from, size_t to, size_t &line_breaks, size_t &column) {
    size_t i = from;
    while (i < to) {
        const void *found = std::memchr(bytes + i, '\n', to - i);
        if (!found) { break; }
        i = static_cast<size_t>(static_cast<const uint8_t *>(found) - bytes) + 1;
        line_breaks++;
        column = 0;
        from = i;
    }
    column += to - from;
}

int split_array(rmj_parser *parser, rmj_stream *stream, const uint8_t *bytes, size_t length, size_t capacity,
                bool at_end, size_t *consumed) {
    size_t pos = 0;
    while (true) {
        size_t start = pos;
        while (pos < length && rmj_is_space(bytes[pos])) { pos++; }
        advance(bytes, start, pos, stream->line_breaks, stream->column);
        *consumed = pos;
        if (pos == length) {
            if (!at_end || stream->phase == after_close) { return RMJ_OK; }
            switch (stream->phase) {
            case before_array: return rmj_fail(parser, RMJ_INVALID, pos, "invalid JSON: no value");
            case after_element: return rmj_fail(parser, RMJ_INVALID, pos, "invalid JSON: expected ',' or ']'");
            default: return rmj_fail(parser, RMJ_INVALID, pos, "invalid JSON: expected a value");
            }
        }
        const uint8_t byte = bytes[pos];
        switch (stream->phase) {
        case before_array:
            if (byte != '[') { return rmj_fail(parser, RMJ_INVALID, pos, "invalid JSON: expected '['"); }
            stream->phase = after_open;
            break;
        case after_element:
            if (byte == ',') {
                stream->phase = after_comma;
            } else if (byte == ']') {
                stream->phase = after_close;
            } else {
                return rmj_fail(parser, RMJ_INVALID, pos, "invalid JSON: expected ',' or ']'");
            }
            break;
        case after_close:
            return rmj_fail(parser, RMJ_INVALID, pos, "invalid JSON: unexpected content after the value");
        default: {
            if (byte == ']' && stream->phase == after_open) {
                stream->phase = after_close;
                break;
            }
            if (byte == ']' || byte == ',') {
                return rmj_fail(parser, RMJ_INVALID, pos, "invalid JSON: expected a value");
            }
            size_t too_deep = SIZE_MAX;
            size_t end = rmj_value_end(bytes, pos, length, rmj_max_depth(parser, 1), &too_deep);
            if (too_deep != SIZE_MAX) { return rmj_fail_too_deep(parser, too_deep); }
            const bool complete = end != 0;
            if (!complete) {
                if (!at_end) { return RMJ_OK; }
                end = length;
            }
            const int code =
                rmj_append(parser, bytes + pos, end - pos, capacity - pos, pos, stream->line_breaks + 1, 1);
            if (code != RMJ_OK) { return code; }
            if (!complete) {
                return rmj_fail(parser, RMJ_INVALID, length, "invalid JSON: expected ',' or ']'");
            }
            stream->count++;
            stream->phase = after_element;
            advance(bytes, pos, end, stream->line_breaks, stream->column);
            pos = end;
            *consumed = pos;
            continue;
        }
        }
        pos++;
        stream->column++;
        *consumed = pos;
    }
}

bool is_blank(const uint8_t *bytes, size_t length) {
    for (size_t i = 0; i < length; i++) {
        if (!rmj_is_space(bytes[i])) { return false; }
    }
    return true;
}

int split_lines(rmj_parser *parser, rmj_stream *stream, const uint8_t *bytes, size_t length, size_t capacity,
                bool at_end, size_t *consumed) {
    size_t pos = 0;
    while (pos < length) {
        const void *found = std::memchr(bytes + pos, '\n', length - pos);
        if (!found && !at_end) { return RMJ_OK; }
        const size_t end = found ? static_cast<size_t>(static_cast<const uint8_t *>(found) - bytes) : length;
        if (!is_blank(bytes + pos, end - pos)) {
            const int code =
                rmj_append(parser, bytes + pos, end - pos, capacity - pos, pos, stream->line_breaks + 1, 0);
            if (code != RMJ_OK) { return code; }
            stream->count++;
        }
        if (found) {
            stream->line_breaks++;
            stream->column = 0;
            pos = end + 1;
        } else {
            stream->column += end - pos;
            pos = end;
        }
        *consumed = pos;
    }
    return RMJ_OK;
}

} // namespace

extern "C" int rmj_parse_batch(rmj_parser *parser, rmj_stream *stream, const uint8_t *bytes, size_t length,
                               size_t capacity, int at_end, size_t *consumed) {
    rmj_reset(parser);
    *consumed = 0;
    if (stream->split == RMJ_SPLIT_LINES) {
        return split_lines(parser, stream, bytes, length, capacity, at_end != 0, consumed);
    }
    return split_array(parser, stream, bytes, length, capacity, at_end != 0, consumed);
}

// Parses documents with simdjson's On Demand API into preorder tokens.
#include "Parser.hpp"

#include <simdjson.h>

#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

static_assert(RMJ_PADDING == simdjson::SIMDJSON_PADDING, "RMJ_PADDING must match simdjson");

namespace od = simdjson::ondemand;
using simdjson::error_code;

struct rmj_parser {
    od::parser parser;
    std::vector<rmj_token> tokens;
    std::vector<uint8_t> arena;
    std::vector<rmj_item> items;
    /// The key tokens of the objects being emitted, innermost last, to find repeated keys.
    std::vector<size_t> keys;
    std::string message;
    size_t error_offset = 0;
    size_t max_depth = RMJ_MAX_DEPTH;
};

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// simdjson hands out a number's raw token unvalidated; JSON's number grammar
/// (RFC 8259 section 6) decides whether the literal text we keep is a number.
bool is_json_number(std::string_view text) {
    size_t i = 0;
    const size_t n = text.size();
    if (i < n && text[i] == '-') { i++; }
    if (i == n) { return false; }
    if (text[i] == '0') {
        i++;
    } else if (is_digit(text[i])) {
        while (i < n && is_digit(text[i])) { i++; }
    } else {
        return false;
    }
    if (i < n && text[i] == '.') {
        const size_t start = ++i;
        while (i < n && is_digit(text[i])) { i++; }
        if (i == start) { return false; }
    }
    if (i < n && (text[i] == 'e' || text[i] == 'E')) {
        i++;
        if (i < n && (text[i] == '+' || text[i] == '-')) { i++; }
        const size_t start = i;
        while (i < n && is_digit(text[i])) { i++; }
        if (i == start) { return false; }
    }
    return i == n;
}

std::string_view trim_trailing_space(std::string_view text) {
    while (!text.empty()) {
        const char last = text.back();
        if (last != ' ' && last != '\t' && last != '\n' && last != '\r') { break; }
        text.remove_suffix(1);
    }
    return text;
}

const char *describe(error_code error) {
    switch (error) {
    case simdjson::TAPE_ERROR: return "invalid JSON: a missing or misplaced comma, colon, bracket or brace";
    case simdjson::INCOMPLETE_ARRAY_OR_OBJECT: return "invalid JSON: unexpected end inside an array or object";
    case simdjson::DEPTH_ERROR: return "invalid JSON: nested too deeply";
    case simdjson::STRING_ERROR: return "invalid JSON: invalid string (a bad escape or unpaired surrogate)";
    case simdjson::UNESCAPED_CHARS: return "invalid JSON: a control character inside a string";
    case simdjson::UNCLOSED_STRING: return "invalid JSON: unexpected end inside a string";
    case simdjson::T_ATOM_ERROR: return "invalid JSON: expected 'true'";
    case simdjson::F_ATOM_ERROR: return "invalid JSON: expected 'false'";
    case simdjson::N_ATOM_ERROR: return "invalid JSON: expected 'null'";
    case simdjson::NUMBER_ERROR: return "invalid JSON: invalid number";
    case simdjson::INCORRECT_TYPE: return "invalid JSON: expected a value";
    case simdjson::EMPTY: return "invalid JSON: no value";
    case simdjson::TRAILING_CONTENT: return "invalid JSON: unexpected content after the value";
    case simdjson::UTF8_ERROR: return "invalid UTF-8";
    case simdjson::CAPACITY: return "the document is too large for the parser";
    case simdjson::MEMALLOC: return "out of memory";
    default: return simdjson::error_message(error);
    }
}

int code_of(error_code error) {
    switch (error) {
    case simdjson::UTF8_ERROR: return RMJ_INVALID_UTF8;
    case simdjson::CAPACITY:
    case simdjson::MEMALLOC: return RMJ_CAPACITY;
    default: return RMJ_INVALID;
    }
}

/// Walks a document or value depth-first, appending tokens.
struct Emitter {
    rmj_parser &parser;
    /// Where a scalar that failed to parse starts (simdjson's own location is past it).
    const char *failed_at = nullptr;

    template <class V> error_code scalar_failed(V &value, error_code error) {
        std::string_view raw;
        if (simdjson::simdjson_result<std::string_view>(value.raw_json_token()).get(raw) == simdjson::SUCCESS) {
            failed_at = raw.data();
        }
        return error;
    }

    size_t push(uint32_t kind, uint32_t length = 0, uint64_t offset = 0) {
        parser.tokens.push_back(rmj_token{kind, length, offset});
        return parser.tokens.size() - 1;
    }

    void push_text(uint32_t kind, std::string_view text) {
        const uint64_t offset = parser.arena.size();
        parser.arena.insert(parser.arena.end(), text.begin(), text.end());
        push(kind, static_cast<uint32_t>(text.size()), offset);
    }

    template <class V> error_code value(V &value) {
        od::json_type type;
        SIMDJSON_TRY(value.type().get(type));
        switch (type) {
        case od::json_type::array: {
            od::array array;
            SIMDJSON_TRY(value.get_array().get(array));
            return elements(array);
        }
        case od::json_type::object: {
            od::object object;
            SIMDJSON_TRY(value.get_object().get(object));
            return members(object);
        }
        case od::json_type::number: {
            std::string_view raw;
            SIMDJSON_TRY(simdjson::simdjson_result<std::string_view>(value.raw_json_token()).get(raw));
            raw = trim_trailing_space(raw);
            if (!is_json_number(raw)) { return scalar_failed(value, simdjson::NUMBER_ERROR); }
            push_text(RMJ_NUMBER, raw);
            return simdjson::SUCCESS;
        }
        case od::json_type::string: {
            std::string_view text;
            if (const error_code error = value.get_string().get(text)) { return scalar_failed(value, error); }
            push_text(RMJ_STRING, text);
            return simdjson::SUCCESS;
        }
        case od::json_type::boolean: {
            bool flag;
            if (const error_code error = value.get_bool().get(flag)) { return scalar_failed(value, error); }
            push(flag ? RMJ_TRUE : RMJ_FALSE);
            return simdjson::SUCCESS;
        }
        case od::json_type::null: {
            bool null;
            if (const error_code error = value.is_null().get(null)) { return scalar_failed(value, error); }
            if (!null) { return scalar_failed(value, simdjson::N_ATOM_ERROR); }
            push(RMJ_NULL);
            return simdjson::SUCCESS;
        }
        }
        return simdjson::INCORRECT_TYPE;
    }

    error_code elements(od::array &array) {
        const size_t index = push(RMJ_ARRAY);
        uint32_t count = 0;
        for (auto element : array) {
            od::value item;
            SIMDJSON_TRY(element.get(item));
            SIMDJSON_TRY(value(item));
            count++;
        }
        parser.tokens[index].length = count;
        return simdjson::SUCCESS;
    }

    error_code members(od::object &object) {
        const size_t index = push(RMJ_OBJECT);
        const size_t first_key = parser.keys.size();
        uint64_t seen = 0;  // one bit per key hash: most keys are told apart without comparing text
        uint32_t count = 0;
        for (auto member : object) {
            od::field field;
            SIMDJSON_TRY(std::move(member).get(field));
            std::string_view key;
            SIMDJSON_TRY(field.unescaped_key().get(key));
            const uint64_t bit = uint64_t(1) << key_hash(key);
            if (seen & bit) { supersede(first_key, key); }
            seen |= bit;
            parser.keys.push_back(parser.tokens.size());
            push_text(RMJ_STRING, key);
            SIMDJSON_TRY(value(field.value()));
            count++;
        }
        parser.keys.resize(first_key);
        parser.tokens[index].length = count;
        return simdjson::SUCCESS;
    }

    static unsigned key_hash(std::string_view key) {
        const unsigned ends = key.empty() ? 0 : static_cast<uint8_t>(key.front()) + 3u * static_cast<uint8_t>(key.back());
        return (static_cast<unsigned>(key.size()) * 7u + ends) & 63u;
    }

    /// Marks an earlier member of the current object with the same key as superseded (the last value wins).
    void supersede(size_t first_key, std::string_view key) {
        for (size_t i = first_key; i < parser.keys.size(); i++) {
            rmj_token &token = parser.tokens[parser.keys[i]];
            if (token.kind == RMJ_STRING && token.length == key.size()
                && std::memcmp(parser.arena.data() + token.offset, key.data(), key.size()) == 0) {
                token.kind = RMJ_SUPERSEDED;
                return;
            }
        }
    }
};

} // namespace

void rmj_reset(rmj_parser *parser) {
    parser->tokens.clear();
    parser->arena.clear();
    parser->items.clear();
    parser->message.clear();
    parser->error_offset = 0;
}

int rmj_fail(rmj_parser *parser, int code, size_t offset, const char *message) {
    parser->message = message;
    parser->error_offset = offset;
    return code;
}

size_t rmj_max_depth(const rmj_parser *parser, size_t enclosing) {
    return parser->max_depth > enclosing ? parser->max_depth - enclosing : 0;
}

int rmj_fail_too_deep(rmj_parser *parser, size_t offset) {
    parser->message = "nested deeper than " + std::to_string(parser->max_depth);
    parser->error_offset = offset;
    return RMJ_INVALID;
}

int rmj_append(rmj_parser *parser, const uint8_t *bytes, size_t length, size_t capacity, size_t base,
               size_t line, size_t enclosing) {
    size_t start = 0;
    while (start < length && rmj_is_space(bytes[start])) { start++; }
    if (start == length) { return rmj_fail(parser, RMJ_INVALID, base + start, describe(simdjson::EMPTY)); }
    // Find where the value ends, so that content after it is reported as such
    // (simdjson's On Demand API leaves trailing content after a root number unseen).
    size_t too_deep = SIZE_MAX;
    const size_t end = rmj_value_end(bytes, start, length, rmj_max_depth(parser, enclosing), &too_deep);
    if (too_deep != SIZE_MAX) { return rmj_fail_too_deep(parser, base + too_deep); }
    size_t trailing = end == 0 ? length : end;
    while (trailing < length && rmj_is_space(bytes[trailing])) { trailing++; }
    const size_t parsed = trailing < length ? end : length;

    const size_t first_token = parser->tokens.size();
    parser->keys.clear();
    od::document document;
    error_code error = parser->parser.iterate(bytes, parsed, capacity).get(document);
    if (error) {
        size_t offset = start;
        if (error == simdjson::INCOMPLETE_ARRAY_OR_OBJECT || error == simdjson::UNCLOSED_STRING) {
            offset = parsed;
        } else if (error == simdjson::UNESCAPED_CHARS) {
            offset = rmj_control_character(bytes, parsed);
        }
        return rmj_fail(parser, code_of(error), base + offset, describe(error));
    }
    Emitter emitter{*parser};
    error = emitter.value(document);
    if (error) {
        const char *location = emitter.failed_at;
        size_t offset = parsed;
        const bool at_end = error == simdjson::INCOMPLETE_ARRAY_OR_OBJECT;
        if (!at_end && (location || document.current_location().get(location) == simdjson::SUCCESS)) {
            offset = static_cast<size_t>(reinterpret_cast<const uint8_t *>(location) - bytes);
        }
        parser->tokens.resize(first_token);
        return rmj_fail(parser, code_of(error), base + offset, describe(error));
    }
    if (trailing < length) {
        parser->tokens.resize(first_token);
        return rmj_fail(parser, RMJ_INVALID, base + trailing, describe(simdjson::TRAILING_CONTENT));
    }
    parser->items.push_back(rmj_item{first_token, line});
    return RMJ_OK;
}

extern "C" {

rmj_parser *rmj_parser_new(void) { return new (std::nothrow) rmj_parser(); }

void rmj_parser_free(rmj_parser *parser) { delete parser; }

void rmj_set_max_depth(rmj_parser *parser, size_t max_depth) { parser->max_depth = max_depth; }

int rmj_parse_document(rmj_parser *parser, const uint8_t *bytes, size_t length, size_t capacity) {
    rmj_reset(parser);
    return rmj_append(parser, bytes, length, capacity, 0, 1, 0);
}

const rmj_token *rmj_tokens(const rmj_parser *parser) { return parser->tokens.data(); }

const uint8_t *rmj_arena(const rmj_parser *parser) { return parser->arena.data(); }

const rmj_item *rmj_items(const rmj_parser *parser, size_t *count) {
    *count = parser->items.size();
    return parser->items.data();
}

const char *rmj_error_message(const rmj_parser *parser) { return parser->message.c_str(); }

size_t rmj_error_offset(const rmj_parser *parser) { return parser->error_offset; }

} // extern "C"

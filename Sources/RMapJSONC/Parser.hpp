// Internal seam between the simdjson-based parser and the batch splitter.
#ifndef RMAP_JSON_PARSER_HPP
#define RMAP_JSON_PARSER_HPP

#include "rmap_json.h"

/// True for the four JSON whitespace bytes.
inline bool rmj_is_space(uint8_t byte) { return byte == ' ' || byte == '\t' || byte == '\n' || byte == '\r'; }

/// The end of the value starting at `start` (its first byte not whitespace), found
/// from quotes, escapes and bracket depth alone; 0 when the bytes end first.
/// A bracket that opens level `max_depth + 1` stops the scan: 0 is returned and
/// `*too_deep` is set to its offset (the caller sets it to SIZE_MAX before).
size_t rmj_value_end(const uint8_t *bytes, size_t start, size_t length, size_t max_depth, size_t *too_deep);

/// The offset of the first control character inside a string, or `length`.
size_t rmj_control_character(const uint8_t *bytes, size_t length);

/// Clears the tokens, arena, items and error of the last parse.
void rmj_reset(rmj_parser *parser);

/// Parses one complete value and appends its tokens and an item starting on `line`.
/// `base` is the value's offset in the caller's bytes, for the error position;
/// `enclosing` counts the arrays around it that count towards the depth limit.
int rmj_append(rmj_parser *parser, const uint8_t *bytes, size_t length, size_t capacity, size_t base,
               size_t line, size_t enclosing);

/// Records an error found by the splitter and returns `code`.
int rmj_fail(rmj_parser *parser, int code, size_t offset, const char *message);

/// The depth a value inside `enclosing` arrays may reach.
size_t rmj_max_depth(const rmj_parser *parser, size_t enclosing);

/// Records that the bracket at `offset` nests deeper than the parser's limit and returns RMJ_INVALID.
int rmj_fail_too_deep(rmj_parser *parser, size_t offset);

#endif

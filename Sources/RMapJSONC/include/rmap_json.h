// A C face over simdjson's On Demand parser for Swift: documents become a
// flat preorder token array, and payload files are parsed in batches of
// complete top-level array elements or lines.
#ifndef RMAP_JSON_H
#define RMAP_JSON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Readable bytes every input needs after its last byte (simdjson's padding).
#define RMJ_PADDING 64

/// Arrays and objects a new parser accepts inside one another; the bracket that
/// opens one more level is an RMJ_INVALID error "nested deeper than N" at its offset.
#define RMJ_MAX_DEPTH 512

/// Token kinds.
enum {
    RMJ_NULL = 0,
    RMJ_TRUE = 1,
    RMJ_FALSE = 2,
    /// `length` bytes of the arena at `offset` hold the number's literal text.
    RMJ_NUMBER = 3,
    /// `length` bytes of the arena at `offset` hold the unescaped UTF-8 text.
    RMJ_STRING = 4,
    /// `length` elements follow, each as its own tokens.
    RMJ_ARRAY = 5,
    /// `length` members follow, each as an RMJ_STRING (or RMJ_SUPERSEDED) key then the value's tokens.
    RMJ_OBJECT = 6,
    /// A key that a later member of the same object repeats: the later value wins, this member is skipped.
    RMJ_SUPERSEDED = 7,
};

/// One node of a parsed value, in preorder.
typedef struct {
    uint32_t kind;
    uint32_t length;
    uint64_t offset;
} rmj_token;

/// One parsed top-level value of a batch.
typedef struct {
    /// Index of the value's first token.
    size_t first_token;
    /// 1-based line where the value starts.
    size_t line;
} rmj_item;

/// Error codes.
enum {
    RMJ_OK = 0,
    /// Invalid JSON; `rmj_error_message` and the position say why and where.
    RMJ_INVALID = 1,
    /// Invalid UTF-8 somewhere in the bytes starting at the error position.
    RMJ_INVALID_UTF8 = 2,
    /// Out of memory, or a value too deep or too large for the parser.
    RMJ_CAPACITY = 3,
};

/// How a batch stream splits its input.
enum {
    /// Elements of one top-level array.
    RMJ_SPLIT_ARRAY = 0,
    /// One value per non-blank line.
    RMJ_SPLIT_LINES = 1,
};

/// Where a batch stream stands between calls. Zero it, then set `split`.
typedef struct {
    int split;
    /// Array splitting: 0 before '[', 1 after '[', 2 after ',', 3 after an element, 4 after ']'.
    int phase;
    /// Number of values parsed so far.
    size_t count;
    /// Lines and bytes since the last line break before the next unconsumed byte.
    size_t line_breaks;
    size_t column;
} rmj_stream;

/// A parser with its token array, string arena and error. Not thread-safe.
typedef struct rmj_parser rmj_parser;

/// A new parser, or NULL when memory is short.
rmj_parser *rmj_parser_new(void);
/// Frees a parser.
void rmj_parser_free(rmj_parser *parser);
/// Sets how deep arrays and objects may nest in the values the parser reads (RMJ_MAX_DEPTH by default).
void rmj_set_max_depth(rmj_parser *parser, size_t max_depth);

/// Parses one whole document into tokens (one item).
/// `capacity - length` must be at least RMJ_PADDING.
int rmj_parse_document(rmj_parser *parser, const uint8_t *bytes, size_t length, size_t capacity);

/// Parses every complete value at the start of `bytes` into tokens (one item each),
/// advancing `stream` and setting `*consumed` to the bytes it is done with; the caller
/// keeps the rest and calls again with more bytes appended. With `at_end` set, the
/// bytes are the last of the input and an unfinished value is an error.
/// Items parsed before an error stay available.
int rmj_parse_batch(rmj_parser *parser, rmj_stream *stream, const uint8_t *bytes, size_t length,
                    size_t capacity, int at_end, size_t *consumed);

/// The tokens of the last parse.
const rmj_token *rmj_tokens(const rmj_parser *parser);
/// The string arena that tokens point into.
const uint8_t *rmj_arena(const rmj_parser *parser);
/// The items of the last parse and their count.
const rmj_item *rmj_items(const rmj_parser *parser, size_t *count);

/// The last error's message (empty when none).
const char *rmj_error_message(const rmj_parser *parser);
/// The last error's byte offset in the bytes given to the failing call.
size_t rmj_error_offset(const rmj_parser *parser);

#ifdef __cplusplus
}
#endif

#endif

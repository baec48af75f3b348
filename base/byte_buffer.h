/* A growable run of bytes, NUL-terminated after its `len` bytes: the one buffer type of the service.
 * The JSON writer (json_writer.h) is this buffer with JSON-writing functions on top; the server keeps
 * its non-JSON bytes in it too (request bodies as they arrive, gzip output, event-stream text).
 * Key invariant: once an allocation failed, `out_of_memory` stays set and every later append is
 * ignored, so a writer checks once at the end instead of after every append. */
#ifndef PUZZLED_BASE_BYTE_BUFFER_H
#define PUZZLED_BASE_BYTE_BUFFER_H

#include <stdbool.h>
#include <stddef.h>

typedef struct byte_buffer {
    char *data;
    size_t len;
    size_t cap;
    bool out_of_memory; /* set once an allocation failed; later appends are ignored */
    bool borrowed;      /* `data` is the caller's storage (bb_borrow): never freed or grown in place */
} byte_buffer;

void bb_init(byte_buffer *b);
/* A buffer over the caller's `cap` bytes at `data`, empty: bytes go straight there while they fit
 * (with their NUL). Growing past `cap` moves them into an allocation of the buffer's own (so `data`
 * no longer points at the caller's storage), to be released with bb_free. */
void bb_borrow(byte_buffer *b, char *data, size_t cap);
void bb_free(byte_buffer *b);
/* Forget the contents, keep the allocation. */
void bb_clear(byte_buffer *b);
/* Keep only the first `len` bytes (at most the current length). */
void bb_truncate(byte_buffer *b, size_t len);
/* Drop the first `n` bytes (already sent), moving the rest to the front. */
void bb_consume(byte_buffer *b, size_t n);

/* Makes room for `extra` more bytes (plus a NUL) after `len`, for a writer that fills `data + len`
 * itself (a compressor, a run of numbers) and then advances `len`. False (and out_of_memory) when
 * that fails. */
bool bb_reserve(byte_buffer *b, size_t extra);

/* Appends `len` bytes (`bytes` may be NULL when `len` is 0). */
void bb_append(byte_buffer *b, const char *bytes, size_t len);
/* Appends NUL-terminated text. */
void bb_append_text(byte_buffer *b, const char *text);

#endif

/* Chunked streaming of generator output with flat memory (see stream.h). */
#include "server/stream.h"

#include <stdlib.h>
#include <string.h>

enum { STREAM_BLOCK = 64 * 1024 };

typedef struct stream {
    void *state;
    stream_next_fn next;
    stream_free_fn free_state;
    json_writer pending; /* generated, not yet handed to MHD */
    bool finished;       /* the generator has produced its last bytes */
    uint64_t *bytes_sent;
} stream;

static ssize_t read_stream(void *cls, uint64_t position, char *buf, size_t max) {
    (void)position;
    stream *s = cls;
    while (s->pending.len < max && !s->finished) {
        stream_status status = s->next(s->state, &s->pending, max - s->pending.len);
        if (status == STREAM_FAILED || s->pending.out_of_memory) return MHD_CONTENT_READER_END_WITH_ERROR;
        s->finished = status == STREAM_DONE;
    }
    if (s->pending.len == 0) return MHD_CONTENT_READER_END_OF_STREAM;
    size_t n = s->pending.len < max ? s->pending.len : max;
    memcpy(buf, s->pending.data, n);
    jw_consume(&s->pending, n);
    *s->bytes_sent += n;
    return (ssize_t)n;
}

static void free_stream(void *cls) {
    stream *s = cls;
    s->free_state(s->state);
    jw_free(&s->pending);
    free(s);
}

struct MHD_Response *stream_response_create(api_response *res, uint64_t *bytes_sent) {
    stream *s = calloc(1, sizeof *s);
    if (s == NULL) {
        res->stream_free(res->stream_state);
        return NULL;
    }
    s->state = res->stream_state;
    s->next = res->stream_next;
    s->free_state = res->stream_free;
    s->bytes_sent = bytes_sent;
    jw_init(&s->pending);
    res->stream_state = NULL;
    /* On failure MHD calls free_stream itself. */
    return MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, STREAM_BLOCK, read_stream, s, free_stream);
}

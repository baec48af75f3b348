/* Chunked streaming of generator output, produced on the compute pool (see stream.h).
 *
 * Two buffers: `ready` belongs to the I/O thread (bytes produced, not yet handed to MHD) and
 * `producing` to the worker while a piece is in production. The lock guards the hand-over and the
 * flags; the generator state is only ever touched by the one worker producing, so it needs no lock.
 * The I/O thread suspends the connection only under the lock and the worker resumes it only under
 * the lock, so a resume can never come before its suspend.
 *
 * With gzip, the worker has a third buffer, `plain`: the generator writes there and each piece is
 * compressed into `producing` (server/compression.h), so only compressed bytes wait for the socket. */
#include "server/stream.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "server/compression.h"

enum { STREAM_BLOCK = 64 * 1024 };
/* With gzip: the generator output compressed per deflate call, and how much compressed output a
 * piece gathers before it is flushed and handed over (at most the `want` MHD asked for). Measured in
 * docs/operations.md#compression. */
enum { GZIP_PLAIN_BLOCK = 64 * 1024, GZIP_PIECE_BYTES = 64 * 1024 };

typedef struct stream {
    compute_job job; /* first: the job's address is the stream's */
    void *state;
    stream_next_fn next;
    stream_free_fn free_state;
    compute_pool *pool;
    struct MHD_Connection *connection;
    uint64_t *bytes_sent;
    pthread_mutex_t lock;
    json_writer ready;     /* I/O thread's */
    json_writer producing; /* the worker's while `in_production` */
    bool gzip;             /* the body is gzip-compressed (Content-Encoding: gzip) */
    gzip_encoder encoder;  /* the worker's, with `gzip` */
    json_writer plain;     /* the worker's, with `gzip`: generator output not yet compressed */
    size_t want;           /* the size of the piece asked for */
    bool in_production;    /* a piece is queued or being produced */
    bool finished;         /* the generator produced its last bytes */
    bool failed;           /* the generator failed, or the pool stopped taking work */
    bool suspended;        /* the connection waits for the piece in production */
    bool abandoned;        /* MHD is done with the response: the worker frees the stream */
} stream;

static void stream_free_now(stream *s) {
    s->free_state(s->state);
    if (s->gzip) gzip_encoder_end(&s->encoder);
    jw_free(&s->plain);
    jw_free(&s->ready);
    jw_free(&s->producing);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

/* Runs the generator until `out` holds `want` bytes or the body ends. */
static void generate(stream *s, json_writer *out, size_t want, bool *finished, bool *failed) {
    while (out->len < want && !*finished && !*failed) {
        stream_status status = s->next(s->state, out, want - out->len);
        *failed = status == STREAM_FAILED || out->out_of_memory;
        *finished = status == STREAM_DONE;
    }
}

/* Generates and compresses blocks into `producing` until it holds about a piece; flushed at the end,
 * finished (the gzip trailer) only when the body is complete. A failed body gets no trailer. */
static void generate_compressed(stream *s, bool *finished, bool *failed) {
    size_t piece = s->want < GZIP_PIECE_BYTES ? s->want : GZIP_PIECE_BYTES;
    do {
        generate(s, &s->plain, GZIP_PLAIN_BLOCK, finished, failed);
        if (*failed) return;
        if (!gzip_encoder_write(&s->encoder, s->plain.data, s->plain.len, *finished, &s->producing)) {
            *failed = true;
            return;
        }
        jw_clear(&s->plain);
    } while (s->producing.len < piece && !*finished);
}

/* On a worker: produce the next piece into `producing`, then hand it over. */
static void produce_piece(compute_job *job) {
    stream *s = (stream *)job;
    bool finished = false, failed = false;
    if (s->gzip) generate_compressed(s, &finished, &failed);
    else generate(s, &s->producing, s->want, &finished, &failed);
    pthread_mutex_lock(&s->lock);
    if (s->abandoned) {
        pthread_mutex_unlock(&s->lock);
        stream_free_now(s);
        return;
    }
    json_writer piece = s->producing; /* `ready` is empty whenever a piece is in production */
    s->producing = s->ready;
    s->ready = piece;
    s->finished = finished;
    s->failed = failed;
    s->in_production = false;
    if (s->suspended) {
        s->suspended = false;
        MHD_resume_connection(s->connection);
    }
    pthread_mutex_unlock(&s->lock);
}

/* Continuations are never refused while the pool runs; the callback is required by the pool. */
static void refuse_piece(compute_job *job, compute_refusal reason) {
    (void)reason;
    produce_piece(job);
}

/* Under the lock: ask a worker for the next piece. False when the pool takes no more work. */
static bool start_piece(stream *s, size_t want) {
    s->want = want;
    s->in_production = true;
    if (compute_pool_continue(s->pool, &s->job)) return true;
    s->in_production = false;
    s->failed = true;
    return false;
}

static ssize_t read_stream(void *cls, uint64_t position, char *buf, size_t max) {
    (void)position;
    stream *s = cls;
    pthread_mutex_lock(&s->lock);
    if (s->ready.len == 0) {
        ssize_t end = s->failed ? MHD_CONTENT_READER_END_WITH_ERROR
                      : s->finished ? MHD_CONTENT_READER_END_OF_STREAM
                                    : 0;
        if (end == 0 && (s->in_production || start_piece(s, max))) {
            s->suspended = true;
            MHD_suspend_connection(s->connection);
        } else if (end == 0) {
            end = MHD_CONTENT_READER_END_WITH_ERROR;
        }
        pthread_mutex_unlock(&s->lock);
        return end;
    }
    size_t n = s->ready.len < max ? s->ready.len : max;
    memcpy(buf, s->ready.data, n);
    jw_consume(&s->ready, n);
    *s->bytes_sent += n;
    if (s->ready.len == 0 && !s->finished && !s->failed && !s->in_production) start_piece(s, max);
    pthread_mutex_unlock(&s->lock);
    return (ssize_t)n;
}

static void free_stream(void *cls) {
    stream *s = cls;
    pthread_mutex_lock(&s->lock);
    bool worker_frees = s->in_production;
    s->abandoned = true;
    pthread_mutex_unlock(&s->lock);
    if (!worker_frees) stream_free_now(s);
}

struct MHD_Response *stream_response_create(api_response *res, bool gzip, compute_pool *pool,
                                            struct MHD_Connection *connection, uint64_t *bytes_sent) {
    stream *s = calloc(1, sizeof *s);
    if (s == NULL || (gzip && !gzip_encoder_begin(&s->encoder))) {
        free(s);
        res->stream_free(res->stream_state);
        res->stream_state = NULL;
        return NULL;
    }
    s->gzip = gzip;
    s->job.run = produce_piece;
    s->job.refuse = refuse_piece;
    s->state = res->stream_state;
    s->next = res->stream_next;
    s->free_state = res->stream_free;
    s->pool = pool;
    s->connection = connection;
    s->bytes_sent = bytes_sent;
    pthread_mutex_init(&s->lock, NULL);
    jw_init(&s->ready);
    jw_init(&s->producing);
    jw_init(&s->plain);
    res->stream_state = NULL;
    /* MHD calls free_stream only for a response it made: when it cannot make one (out of memory), it
     * returns NULL without calling it, so the stream is freed here. */
    struct MHD_Response *response =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, STREAM_BLOCK, read_stream, s, free_stream);
    if (response == NULL) stream_free_now(s);
    return response;
}

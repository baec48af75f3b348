/* Chunked streaming of generator output, produced on the compute pool (see stream.h).
 *
 * A ring of STREAM_PIECES buffers: the worker's generator writes each piece straight into its ring
 * buffer (the generators format into the buffer themselves, no batch in between), and the I/O
 * thread's reader copies the head piece into the block MHD offers. That copy is the only one in user
 * space: MHD's chunked reader API gives the buffer only during the callback, on the I/O thread, and
 * the generator must not run there. While one piece is being sent, the worker is already producing
 * the next ones (up to the ring's size), so both sides keep working and the connection is suspended
 * only when the socket is faster than the generator. Memory stays at the ring's size per stream,
 * and a client that stops reading holds no worker once the ring is full.
 *
 * The lock guards the ring's indices and the flags; the generator state is only ever touched by the
 * one worker producing, so it needs no lock. The I/O thread suspends the connection only under the
 * lock and the worker resumes it only under the lock, so a resume can never come before its suspend.
 *
 * With gzip, the worker has one more buffer, `plain`: the generator writes there and each block is
 * compressed into the piece (server/compression.h), so only compressed bytes wait for the socket. */
#include "server/stream.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "server/compression.h"
#include "server/suspension.h"

enum { STREAM_BLOCK = 64 * 1024 };
/* Pieces: the generator fills one whole piece per job, the I/O thread hands it to MHD in blocks of
 * the `max` MHD offers. Up to STREAM_PIECES - 1 pieces are produced ahead of the one being sent, so
 * the worker rarely waits for the socket and the socket rarely for the worker (each wait is a
 * suspend, a resume and a thread switch). Sizes measured in docs/operations.md#benchmarks. */
enum { STREAM_PIECES = 3, STREAM_PIECE_BYTES = 1024 * 1024 };
/* A piece is also handed over, once it holds something, when STREAM_PIECE_MS have passed since it was
 * started: a slow generator's client then gets its lines as they come, not a megabyte at a time. The
 * generator is asked for STREAM_STEP_BYTES at a time, so the clock is looked at often enough. */
enum { STREAM_PIECE_MS = 10, STREAM_STEP_BYTES = 64 * 1024 };
/* With gzip: the generator output compressed per deflate call, and how much compressed output a
 * piece gathers before it is flushed and handed over. Measured in docs/operations.md#compression. */
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
    /* A ring of pieces: `filled` complete ones from `head` on belong to the I/O thread (`sent` bytes
     * of the head one are with MHD already); the one at `producing` to the worker while
     * `in_production`; the rest are empty. */
    json_writer pieces[STREAM_PIECES];
    size_t head, filled, sent, producing;
    bool gzip;             /* the body is gzip-compressed (Content-Encoding: gzip) */
    gzip_encoder encoder;  /* the worker's, with `gzip` */
    json_writer plain;     /* the worker's, with `gzip`: generator output not yet compressed */
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
    for (size_t i = 0; i < STREAM_PIECES; i++) jw_free(&s->pieces[i]);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

/* Runs the generator until `out` holds `want` bytes, the body ends, or `out` holds something at
 * `hand_over`. */
static void generate(stream *s, json_writer *out, size_t want, const deadline *hand_over, bool *finished,
                     bool *failed) {
    while (out->len < want && !*finished && !*failed) {
        size_t step = want - out->len < STREAM_STEP_BYTES ? want - out->len : STREAM_STEP_BYTES;
        stream_status status = s->next(s->state, out, step);
        *failed = status == STREAM_FAILED || out->out_of_memory;
        *finished = status == STREAM_DONE;
        if (out->len > 0 && deadline_expired(hand_over)) return;
    }
}

/* Generates and compresses blocks into `piece` until it holds about GZIP_PIECE_BYTES (or something, at
 * `hand_over`); flushed at the end, finished (the gzip trailer) only when the body is complete. A
 * failed body gets no trailer. */
static void generate_compressed(stream *s, json_writer *piece, const deadline *hand_over, bool *finished,
                                bool *failed) {
    do {
        generate(s, &s->plain, GZIP_PLAIN_BLOCK, hand_over, finished, failed);
        if (*failed) return;
        if (!gzip_encoder_write(&s->encoder, s->plain.data, s->plain.len, *finished, piece)) {
            *failed = true;
            return;
        }
        jw_clear(&s->plain);
    } while (piece->len < GZIP_PIECE_BYTES && !*finished && !deadline_expired(hand_over));
}

/* Under the lock: ask a worker for the next piece unless the ring is full or the body complete.
 * Marks the stream failed when the pool takes no more work. */
static void start_piece(stream *s) {
    if (s->in_production || s->finished || s->failed || s->filled == STREAM_PIECES) return;
    s->producing = (s->head + s->filled) % STREAM_PIECES;
    s->in_production = true;
    if (compute_pool_continue(s->pool, &s->job)) return;
    s->in_production = false;
    s->failed = true;
}

/* On a worker: produce a piece, hand it over, and queue the next one while the ring has room. */
static void produce_piece(compute_job *job) {
    stream *s = (stream *)job;
    json_writer *piece = &s->pieces[s->producing];
    bool finished = false, failed = false;
    deadline hand_over = deadline_after_ms(STREAM_PIECE_MS);
    if (s->gzip) generate_compressed(s, piece, &hand_over, &finished, &failed);
    else generate(s, piece, STREAM_PIECE_BYTES, &hand_over, &finished, &failed);
    pthread_mutex_lock(&s->lock);
    if (s->abandoned) {
        pthread_mutex_unlock(&s->lock);
        stream_free_now(s);
        return;
    }
    if (piece->len > 0) s->filled++;
    s->finished = finished;
    s->failed = failed;
    s->in_production = false;
    if (s->suspended) {
        s->suspended = false;
        suspension_resume(s->connection);
    }
    start_piece(s);
    pthread_mutex_unlock(&s->lock);
}

/* Continuations are never refused while the pool runs; the callback is required by the pool. */
static void refuse_piece(compute_job *job, compute_refusal reason) {
    (void)reason;
    produce_piece(job);
}

/* The head piece is the I/O thread's alone (the worker only writes a piece past the filled ones), so
 * it is copied into MHD's buffer outside the lock. */
static ssize_t read_stream(void *cls, uint64_t position, char *buf, size_t max) {
    (void)position;
    stream *s = cls;
    pthread_mutex_lock(&s->lock);
    if (s->filled == 0) {
        ssize_t end = s->failed ? MHD_CONTENT_READER_END_WITH_ERROR
                      : s->finished ? MHD_CONTENT_READER_END_OF_STREAM
                                    : 0;
        if (end == 0) start_piece(s);
        if (end == 0 && s->in_production) {
            s->suspended = true;
            suspension_suspend(s->connection);
        } else if (end == 0) {
            end = MHD_CONTENT_READER_END_WITH_ERROR;
        }
        pthread_mutex_unlock(&s->lock);
        return end;
    }
    json_writer *piece = &s->pieces[s->head];
    pthread_mutex_unlock(&s->lock);
    size_t n = piece->len - s->sent < max ? piece->len - s->sent : max;
    memcpy(buf, piece->data + s->sent, n);
    s->sent += n;
    *s->bytes_sent += n;
    pthread_mutex_lock(&s->lock);
    if (s->sent == piece->len) {
        jw_clear(piece);
        s->sent = 0;
        s->head = (s->head + 1) % STREAM_PIECES;
        s->filled--;
    }
    start_piece(s);
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
    for (size_t i = 0; i < STREAM_PIECES; i++) jw_init(&s->pieces[i]);
    jw_init(&s->plain);
    res->stream_state = NULL;
    /* MHD calls free_stream only for a response it made: when it cannot make one (out of memory), it
     * returns NULL without calling it, so the stream is freed here. */
    struct MHD_Response *response =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, STREAM_BLOCK, read_stream, s, free_stream);
    if (response == NULL) stream_free_now(s);
    return response;
}

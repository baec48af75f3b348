/* Chunked streaming of generator output (see stream.h). Two ways, chosen per response:
 *
 * Direct, for bounded generators (api_respond_bounded_stream) sent without compression: the I/O
 * thread's content reader runs the generator straight into the block MHD offers, asking it for at
 * most STREAM_CALL_BYTES per call, so one call's work is bounded and the bytes are written once in
 * user space. A generator step that overshoots MHD's block (an item longer than the room left) moves
 * into the writer's own allocation (bb_borrow); what did not fit waits in `carry` for the next call.
 * Nothing is held between calls but the generator's state (and that rare carry), so a stalled
 * reader costs no more than MHD's own connection buffer.
 *
 * On the pool, for the rest (searches whose next item may take long, and every gzip'd stream): a ring
 * of STREAM_PIECES buffers of about STREAM_PIECE_BYTES. The worker's generator writes each piece
 * straight into its ring buffer, and the I/O thread's reader copies the head piece into the block MHD
 * offers (MHD's chunked reader API gives its buffer only during the callback, on the I/O thread). While
 * one piece is being sent, the worker is already producing the next ones (up to the ring's size), so
 * both sides keep working and the connection is suspended only when the socket is faster than the
 * generator. A client that stops reading holds no worker once the ring is full.
 *
 * The stream is a producer of bytes for its request (server/request.h), not an owner of it: the
 * request frees it with itself. The request's lock guards the ring's indices and the producer's
 * state; the generator state is only ever touched by the one worker producing, so it needs no lock.
 * A piece in production holds a reference to the request, and so does the response while
 * libmicrohttpd may read it. The I/O thread suspends the connection (request_suspend) only under the
 * lock, after finding nothing to send while a piece is in production; the worker, under the lock,
 * hands its piece over and wakes the request (request_wake), which resumes the connection.
 *
 * With gzip, the worker has one more buffer, `plain`: the generator writes there and each block is
 * compressed into the piece (server/compression.h), so only compressed bytes wait for the socket.
 *
 * Memory: every stream takes its buffers' size (stream_charge) from the server-wide budget
 * (stream_configure) when it is created, and gives it back when MHD is done with it; a stream the
 * budget cannot take is not started (STREAM_OVER_BUDGET). */
#include "server/stream.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/common/monotonic.h"

#include "server/compression.h"

enum { STREAM_BLOCK = 64 * 1024 };
/* Pieces: the generator fills one whole piece per job, the I/O thread hands it to MHD in blocks of
 * the `max` MHD offers. Up to STREAM_PIECES - 1 pieces are produced ahead of the one being sent, so
 * the worker rarely waits for the socket and the socket rarely for the worker (each wait is a
 * suspend, a resume and a thread switch). A piece is small, so that a stalled stream holds little:
 * the streams left on the pool are searches, whose items come slower than any socket takes them,
 * and compressed ones, whose pieces are compressed bytes. Figures in docs/architecture.md#streams-memory-and-the-budget. */
enum { STREAM_PIECES = 3, STREAM_PIECE_BYTES = 64 * 1024 };
/* An overlapped stream (api_respond_overlapped_stream) only formats values already computed, about as
 * fast as the socket takes them: its pieces are wider, so that the worker and the I/O thread hand over
 * a piece (a resume, a continuation on the pool, a thread switch) once every 256 KiB rather than every
 * 64 KiB; with 64 KiB pieces the handovers cost more CPU than the overlap saved. Figures in
 * docs/performance.md#the-seeded-shuffle. */
enum { STREAM_WIDE_PIECE_BYTES = 256 * 1024 };
/* A piece is also handed over, once it holds something, when STREAM_PIECE_MS have passed since it was
 * started: a slow generator's client then gets its lines as they come, not a piece at a time. The
 * generator is asked for STREAM_STEP_BYTES at a time, so the clock is looked at often enough. */
enum { STREAM_PIECE_MS = 10, STREAM_STEP_BYTES = 16 * 1024 };
/* With gzip: the generator output compressed per deflate call; deflate's own state (zlib's documented
 * (1 << (windowBits + 2)) + (1 << (memLevel + 9)) for 15 and 8, with room for its structures), counted
 * in the stream's charge. Measured in docs/requests.md#compression. */
enum { GZIP_PLAIN_BLOCK = 64 * 1024, GZIP_STATE_BYTES = 288 * 1024 };

/* The server-wide budget of stream buffers (set by stream_configure at start-up), and the longest
 * direct call seen (bytes produced, time). */
static struct {
    size_t budget;
    atomic_size_t held;
    atomic_uint_fast64_t longest_call_bytes, longest_call_ns;
} streams;

/* Where the production of pieces stands. */
typedef enum stream_producer {
    PRODUCER_IDLE,     /* no piece in production: the next one starts when the ring has room */
    PRODUCER_WORKING,  /* a piece is queued or being produced; its job holds a reference */
    PRODUCER_FINISHED, /* the generator produced its last bytes */
    PRODUCER_FAILED,   /* the generator failed, or the pool stopped taking work */
} stream_producer;

struct stream {
    compute_job job; /* first: the job's address is the stream's */
    void *state;
    stream_next_fn next;
    stream_free_fn free_state;
    compute_pool *pool;
    request_context *request;
    uint64_t *bytes_sent;
    /* A ring of pieces: `filled` complete ones from `head` on belong to the I/O thread (`sent` bytes
     * of the head one are with MHD already); the one at `producing` to the worker while
     * PRODUCER_WORKING; the rest are empty. */
    json_writer pieces[STREAM_PIECES];
    size_t head, filled, sent, producing;
    stream_producer producer;
    size_t charge;        /* bytes taken from the budget */
    size_t piece_bytes;   /* on the pool: what one piece holds, STREAM_PIECE_BYTES or STREAM_WIDE_PIECE_BYTES */
    bool direct;          /* produced by the I/O thread's reader (no ring, no worker) */
    json_writer carry;    /* direct: bytes one call produced beyond MHD's block, sent first next */
    bool gzip;            /* the body is gzip-compressed (Content-Encoding: gzip) */
    gzip_encoder encoder; /* the worker's, with `gzip` */
    json_writer plain;    /* the worker's, with `gzip`: generator output not yet compressed */
};

void stream_free(stream *s) {
    if (s == NULL) return;
    stream_budget_give(s->charge);
    s->free_state(s->state);
    bb_free(&s->carry);
    if (s->gzip) gzip_encoder_end(&s->encoder);
    bb_free(&s->plain);
    for (size_t i = 0; i < STREAM_PIECES; i++) bb_free(&s->pieces[i]);
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

/* Generates and compresses blocks into `piece` until it holds about STREAM_PIECE_BYTES (or something, at
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
        bb_clear(&s->plain);
    } while (piece->len < STREAM_PIECE_BYTES && !*finished && !deadline_expired(hand_over));
}

/* Under the request's lock: ask a worker for the next piece unless one is in production, the ring
 * is full or the body complete; the job takes a reference to the request. Marks the stream failed
 * when the pool takes no more work. */
static void start_piece(stream *s) REQUIRES(s->request) {
    if (s->producer != PRODUCER_IDLE || s->filled == STREAM_PIECES) return;
    s->producing = (s->head + s->filled) % STREAM_PIECES;
    if (!compute_pool_continue(s->pool, &s->job)) {
        s->producer = PRODUCER_FAILED;
        return;
    }
    s->producer = PRODUCER_WORKING;
    request_hold(s->request);
}

bool stream_due(const stream *s) { return s->filled > 0 || s->producer != PRODUCER_WORKING; }

/* On a worker: produce a piece and hand it over; go on with the next while the ring has room and
 * STREAM_PIECE_MS have not passed since the job began, then queue the next one while the ring has room.
 * A fast generator so fills the ring in one job instead of a continuation (and a worker's wake-up) per
 * piece; a slow one still goes back to the queue after each piece. A request that ended stops the
 * production. The job's reference to the request goes last. */
static bool produce_piece(compute_job *job) {
    stream *s = (stream *)job;
    deadline hand_over = deadline_after_ms(STREAM_PIECE_MS);
    bool more;
    do {
        json_writer *piece = &s->pieces[s->producing];
        bool finished = false, failed = false;
        if (s->gzip) generate_compressed(s, piece, &hand_over, &finished, &failed);
        else generate(s, piece, s->piece_bytes, &hand_over, &finished, &failed);
        request_lock(s->request);
        more = false;
        if (request_state_of(s->request) != REQUEST_ENDED) {
            if (piece->len > 0) s->filled++;
            s->producer = failed ? PRODUCER_FAILED : finished ? PRODUCER_FINISHED : PRODUCER_WORKING;
            more = s->producer == PRODUCER_WORKING && s->filled < STREAM_PIECES && !deadline_expired(&hand_over);
            if (more) {
                s->producing = (s->head + s->filled) % STREAM_PIECES;
            } else if (s->producer == PRODUCER_WORKING) {
                s->producer = PRODUCER_IDLE;
                start_piece(s);
            }
            request_wake(s->request);
        }
        request_unlock(s->request);
    } while (more);
    request_release(s->request);
    return true; /* a continuation: the pool measures none */
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
    request_lock(s->request);
    if (s->filled == 0) {
        start_piece(s);
        ssize_t end = s->producer == PRODUCER_FINISHED ? MHD_CONTENT_READER_END_OF_STREAM
                      : s->producer == PRODUCER_FAILED ? MHD_CONTENT_READER_END_WITH_ERROR
                                                       : 0;
        if (end == 0) request_suspend(s->request); /* woken when the piece in production is handed over */
        request_unlock(s->request);
        return end;
    }
    json_writer *piece = &s->pieces[s->head];
    request_unlock(s->request);
    size_t n = piece->len - s->sent < max ? piece->len - s->sent : max;
    memcpy(buf, piece->data + s->sent, n);
    s->sent += n;
    *s->bytes_sent += n;
    request_lock(s->request);
    if (s->sent == piece->len) {
        bb_clear(piece);
        s->sent = 0;
        s->head = (s->head + 1) % STREAM_PIECES;
        s->filled--;
    }
    start_piece(s);
    request_unlock(s->request);
    return (ssize_t)n;
}

static void store_max(atomic_uint_fast64_t *longest, uint64_t value) {
    uint_fast64_t seen = atomic_load_explicit(longest, memory_order_relaxed);
    while (value > seen &&
           !atomic_compare_exchange_weak_explicit(longest, &seen, value, memory_order_relaxed, memory_order_relaxed)) {
    }
}

/* Runs the generator once straight into `buf`: at most STREAM_CALL_BYTES asked for (half of `max` when
 * MHD offers less room, so that a step's overshoot still fits); what overflowed `buf` stays in
 * `carry`. Returns the bytes in `buf`, or -1 when the generator failed. */
static ssize_t produce_direct(stream *s, char *buf, size_t max) {
    json_writer out;
    bb_borrow(&out, buf, max);
    size_t want = max / 2 < STREAM_CALL_BYTES ? max / 2 : STREAM_CALL_BYTES;
    stream_status status = s->next(s->state, &out, want > 0 ? want : 1);
    store_max(&streams.longest_call_bytes, out.len);
    if (status == STREAM_FAILED || out.out_of_memory) {
        bb_free(&out);
        return -1;
    }
    if (status == STREAM_DONE) s->producer = PRODUCER_FINISHED;
    size_t n = out.len < max ? out.len : max;
    if (out.data != buf) { /* moved to its own allocation: what fits goes now, the rest next call */
        memcpy(buf, out.data, n);
        bb_free(&s->carry); /* empty, but may hold the allocation of an earlier overflow */
        s->carry = out;
        bb_consume(&s->carry, n);
    }
    return (ssize_t)n;
}

/* The direct reader: the carry first, else one bounded generator call. */
static ssize_t read_direct(void *cls, uint64_t position, char *buf, size_t max) {
    (void)position;
    stream *s = cls;
    ssize_t n;
    if (s->carry.len > 0) {
        n = (ssize_t)(s->carry.len < max ? s->carry.len : max);
        memcpy(buf, s->carry.data, (size_t)n);
        bb_consume(&s->carry, (size_t)n);
    } else if (s->producer == PRODUCER_FINISHED) {
        return MHD_CONTENT_READER_END_OF_STREAM;
    } else {
        int64_t began = monotonic_now_ns();
        n = produce_direct(s, buf, max);
        store_max(&streams.longest_call_ns, (uint64_t)(monotonic_now_ns() - began));
        /* a generator keeps its contract (bytes, or the end): nothing produced and not done is a fault */
        if (n < 0 || (n == 0 && s->producer != PRODUCER_FINISHED)) return MHD_CONTENT_READER_END_WITH_ERROR;
        if (n == 0) return MHD_CONTENT_READER_END_OF_STREAM;
    }
    *s->bytes_sent += (uint64_t)n;
    return n;
}

/* libmicrohttpd is done with the response: its reference to the request goes. */
static void release_request(void *cls) {
    stream *s = cls;
    request_release(s->request);
}

void stream_configure(size_t budget_bytes) { streams.budget = budget_bytes; }

stream_figures stream_figures_now(void) {
    return (stream_figures){
        .budget_bytes = streams.budget,
        .held_bytes = atomic_load(&streams.held),
        .call_bound_bytes = STREAM_CALL_BOUND_BYTES,
        .longest_call_bytes = atomic_load(&streams.longest_call_bytes),
        .longest_call_seconds = (double)atomic_load(&streams.longest_call_ns) / 1e9,
    };
}

/* The piece of a stream on the pool: wide for an overlapped one sent as it is; compressed pieces stay
 * narrow (deflate, not the socket, sets their pace). */
static size_t piece_bytes(bool overlapped, bool gzip) {
    return overlapped && !gzip ? STREAM_WIDE_PIECE_BYTES : STREAM_PIECE_BYTES;
}

size_t stream_charge(bool direct, bool overlapped, bool gzip) {
    if (direct) return STREAM_CALL_BOUND_BYTES;
    return STREAM_PIECES * piece_bytes(overlapped, gzip) + (gzip ? GZIP_PLAIN_BLOCK + GZIP_STATE_BYTES : 0);
}

bool stream_budget_take(size_t charge) {
    size_t held = atomic_load(&streams.held);
    do {
        if (held + charge > streams.budget) return false;
    } while (!atomic_compare_exchange_weak(&streams.held, &held, held + charge));
    return true;
}

void stream_budget_give(size_t bytes) { atomic_fetch_sub(&streams.held, bytes); }

stream_outcome stream_response_create(api_response *res, bool gzip, compute_pool *pool, request_context *request,
                                      uint64_t *bytes_sent, stream **made, struct MHD_Response **response) {
    *response = NULL;
    *made = NULL;
    bool direct = res->stream_bounded && !gzip;
    size_t charge = stream_charge(direct, res->stream_overlapped, gzip);
    stream_outcome outcome = STREAM_OVER_BUDGET;
    stream *s = NULL;
    if (!stream_budget_take(charge)) goto out;
    outcome = STREAM_NO_MEMORY;
    s = calloc(1, sizeof *s);
    if (s == NULL) {
        stream_budget_give(charge);
        goto out;
    }
    s->charge = charge;
    s->piece_bytes = piece_bytes(res->stream_overlapped, gzip);
    s->direct = direct;
    s->gzip = gzip;
    s->job.run = produce_piece;
    s->job.refuse = refuse_piece;
    s->state = res->stream_state;
    s->next = res->stream_next;
    s->free_state = res->stream_free;
    s->pool = pool;
    s->request = request;
    s->bytes_sent = bytes_sent;
    for (size_t i = 0; i < STREAM_PIECES; i++) bb_init(&s->pieces[i]);
    bb_init(&s->plain);
    bb_init(&s->carry);
    res->stream_state = NULL; /* the stream's now: stream_free frees it */
    if (gzip && !gzip_encoder_begin(&s->encoder)) {
        s->gzip = false; /* no encoder to end */
        stream_free(s);
        goto out;
    }
    /* MHD calls release_request only for a response it made: when it cannot make one (out of memory),
     * it returns NULL without calling it, and the stream is freed here. */
    *response = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, STREAM_BLOCK, direct ? read_direct : read_stream, s,
                                                  release_request);
    if (*response == NULL) {
        stream_free(s);
        goto out;
    }
    request_lock(request);
    request_hold(request);
    request_unlock(request);
    *made = s;
    outcome = STREAM_STARTED;
out:
    if (res->stream_state != NULL) res->stream_free(res->stream_state);
    res->stream_state = NULL;
    return outcome;
}

/* The dice relay (see dice_relay.h): two batch buffers, a helper task drawing into the free one,
 * and a claim so that only one thread draws at a time. Batch b lives in buffer b % DICE_RELAY_BUFFERS;
 * the helper draws batch `drawn` once the caller has released batch `drawn - DICE_RELAY_BUFFERS`. */
#include "core/random/dice_relay.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "core/common/fork_join.h"
#include "core/random/bounded_random.h"

enum { DICE_RELAY_BUFFERS = 2 };

struct dice_relay {
    pthread_mutex_t lock;
    pthread_cond_t changed; /* a batch drawn, a batch released, or the relay stopped */
    rng *r;                 /* drawn from only by the thread holding the claim (`drawing`) */
    size_t top, less, steps, batches;
    size_t drawn;    /* batches drawn */
    size_t released; /* batches the caller is done with */
    bool drawing;    /* a thread holds the claim on batch `drawn` */
    bool holding;    /* the caller holds batch `released` (given by dice_relay_next) */
    bool stopped;
    parallel_task helper;
    uint32_t pairs[DICE_RELAY_BUFFERS][DICE_RELAY_BATCH_PAIRS][2];
};

static size_t batch_pairs(const dice_relay *d, size_t batch) {
    size_t first = batch * DICE_RELAY_BATCH_PAIRS;
    return d->steps - first < DICE_RELAY_BATCH_PAIRS ? d->steps - first : DICE_RELAY_BATCH_PAIRS;
}

/* Draws batch `batch` into its buffer; the caller holds the claim. */
static void draw_batch(dice_relay *d, size_t batch) {
    uint32_t(*out)[2] = d->pairs[batch % DICE_RELAY_BUFFERS];
    size_t first = batch * DICE_RELAY_BATCH_PAIRS, count = batch_pairs(d, batch);
    for (size_t k = 0; k < count; k++) {
        size_t i = d->top - 2 * (first + k);
        uint64_t j1, j2;
        bounded_random_pair(d->r, i + 1 - d->less, i - d->less, &j1, &j2);
        out[k][0] = (uint32_t)j1;
        out[k][1] = (uint32_t)j2;
    }
}

/* Under the lock: draws the next batch when no one else is drawing and its buffer is free (the lock is
 * let go while drawing). Returns whether it drew. */
static bool draw_if_free(dice_relay *d) {
    if (d->drawing || d->stopped || d->drawn == d->batches || d->drawn - d->released == DICE_RELAY_BUFFERS)
        return false;
    size_t batch = d->drawn;
    d->drawing = true;
    pthread_mutex_unlock(&d->lock);
    draw_batch(d, batch);
    pthread_mutex_lock(&d->lock);
    d->drawn++;
    d->drawing = false;
    pthread_cond_broadcast(&d->changed);
    return true;
}

static void draw_ahead(void *relay) {
    dice_relay *d = relay;
    pthread_mutex_lock(&d->lock);
    while (!d->stopped && d->drawn < d->batches)
        if (!draw_if_free(d)) pthread_cond_wait(&d->changed, &d->lock);
    pthread_mutex_unlock(&d->lock);
}

dice_relay *dice_relay_start(rng *r, size_t top, size_t less, size_t steps) {
    dice_relay *d = calloc(1, sizeof *d);
    if (d == NULL) return NULL;
    d->r = r;
    d->top = top;
    d->less = less;
    d->steps = steps;
    d->batches = (steps + DICE_RELAY_BATCH_PAIRS - 1) / DICE_RELAY_BATCH_PAIRS;
    pthread_mutex_init(&d->lock, NULL);
    pthread_cond_init(&d->changed, NULL);
    fork_join_offer(&d->helper, draw_ahead, d); /* until a worker takes it, the caller draws */
    return d;
}

const uint32_t (*dice_relay_next(dice_relay *d, size_t *count))[2] {
    pthread_mutex_lock(&d->lock);
    if (d->holding) {
        d->released++;
        d->holding = false;
        pthread_cond_broadcast(&d->changed);
    }
    size_t batch = d->released;
    if (batch == d->batches) {
        pthread_mutex_unlock(&d->lock);
        *count = 0;
        return NULL;
    }
    while (d->drawn == batch)
        if (!draw_if_free(d)) pthread_cond_wait(&d->changed, &d->lock);
    d->holding = true;
    pthread_mutex_unlock(&d->lock);
    *count = batch_pairs(d, batch);
    return (const uint32_t(*)[2])d->pairs[batch % DICE_RELAY_BUFFERS];
}

void dice_relay_finish(dice_relay *d) {
    pthread_mutex_lock(&d->lock);
    d->stopped = true;
    pthread_cond_broadcast(&d->changed);
    pthread_mutex_unlock(&d->lock);
    fork_join_cancel(&d->helper); /* never started, or returned at `stopped` */
    pthread_cond_destroy(&d->changed);
    pthread_mutex_destroy(&d->lock);
    free(d);
}

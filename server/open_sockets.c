/* See open_sockets.h. A growable array of descriptors under one mutex; connections open and close
 * far less often than requests, and the stop scans the array once per 10 ms step. */
#include "server/open_sockets.h"
#include "server/thread_safety.h"

#include <linux/sockios.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <time.h>

struct open_sockets {
    mutex lock;
    int *fds;
    size_t count, capacity;
};

open_sockets *open_sockets_create(void) {
    open_sockets *sockets = calloc(1, sizeof *sockets);
    if (sockets != NULL) mutex_init(&sockets->lock);
    return sockets;
}

void open_sockets_destroy(open_sockets *sockets) {
    mutex_destroy(&sockets->lock);
    free(sockets->fds);
    free(sockets);
}

void open_sockets_add(open_sockets *sockets, int fd) {
    mutex_lock(&sockets->lock);
    if (sockets->count == sockets->capacity) {
        size_t capacity = sockets->capacity ? 2 * sockets->capacity : 64;
        int *grown = realloc(sockets->fds, capacity * sizeof *grown);
        if (grown != NULL) {
            sockets->fds = grown;
            sockets->capacity = capacity;
        }
    }
    if (sockets->count < sockets->capacity) sockets->fds[sockets->count++] = fd; /* else: not waited for */
    mutex_unlock(&sockets->lock);
}

void open_sockets_remove(open_sockets *sockets, int fd) {
    mutex_lock(&sockets->lock);
    for (size_t i = 0; i < sockets->count; i++) {
        if (sockets->fds[i] != fd) continue;
        sockets->fds[i] = sockets->fds[--sockets->count];
        break;
    }
    mutex_unlock(&sockets->lock);
}

static bool all_flushed(open_sockets *sockets) {
    bool flushed = true;
    mutex_lock(&sockets->lock);
    for (size_t i = 0; i < sockets->count && flushed; i++) {
        int unsent = 0;
        flushed = ioctl(sockets->fds[i], SIOCOUTQ, &unsent) != 0 || unsent == 0;
    }
    mutex_unlock(&sockets->lock);
    return flushed;
}

bool open_sockets_wait_flushed(open_sockets *sockets, const deadline *limit) {
    struct timespec step = {.tv_sec = 0, .tv_nsec = 10 * 1000000};
    while (!all_flushed(sockets)) {
        if (deadline_expired(limit)) return false;
        nanosleep(&step, NULL);
    }
    return true;
}

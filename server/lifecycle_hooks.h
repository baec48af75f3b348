/* Pauses at named points of a request's life, compiled in only by the PUZZLED_LIFECYCLE_HOOKS build
 * (tests/lifecycle/run.py), so that a test makes an interleaving of threads happen for sure instead
 * of hoping for it. A request with the header `X-Pause-At: <point>` stops at that point: the thread
 * there creates the file <point>.reached in the directory named by the environment variable
 * PUZZLED_LIFECYCLE_DIR, and waits until the test creates <point>.go there. The points:
 *   resumed   the I/O thread, called again for a request whose job was queued, before it looks at
 *             the request's state (the lost-wakeup window of the old design);
 *   running   the worker, as the job begins;
 *   complete  the worker, as the job's result is about to be published.
 * In every other build the calls below are empty and the header is an ordinary, ignored header. */
#ifndef PUZZLED_SERVER_LIFECYCLE_HOOKS_H
#define PUZZLED_SERVER_LIFECYCLE_HOOKS_H

#define LIFECYCLE_PAUSE_HEADER "X-Pause-At"

typedef enum lifecycle_point {
    LIFECYCLE_NOWHERE,
    LIFECYCLE_RESUMED,
    LIFECYCLE_RUNNING,
    LIFECYCLE_COMPLETE,
} lifecycle_point;

#ifdef PUZZLED_LIFECYCLE_HOOKS
/* The point the header names, or LIFECYCLE_NOWHERE. */
lifecycle_point lifecycle_hook_point(const char *header_value);
/* Pauses when `at` is the request's `armed` point (see above). */
void lifecycle_hook_pause(lifecycle_point armed, lifecycle_point at);
#else /* the header is not even looked up */
#define lifecycle_hook_point(header_value) LIFECYCLE_NOWHERE
#define lifecycle_hook_pause(armed, at) ((void)0)
#endif

#endif

/* `puzzled --count-queens N`: one n-queens count, or one part of a split count (--parts, --part), run
 * through the service's own path and printed as one JSON line instead of serving: what the pods of a
 * Kubernetes Indexed Job run, each counting the part its JOB_COMPLETION_INDEX names
 * (deploy/kubernetes/jobs/queens-count.yaml, docs/deployment.md). */
#ifndef PUZZLED_SERVER_COUNT_ONCE_H
#define PUZZLED_SERVER_COUNT_ONCE_H

#include "server/config.h"

/* Exit codes: the answer printed on stdout; an answer of the service's that retrying cannot change
 * (a 4xx: a part outside its split, a count refused as hopeless), printed on stderr; anything else
 * (a 5xx, no server), on stderr, worth a retry. */
enum { COUNT_ONCE_OK = 0, COUNT_ONCE_RETRY = 1, COUNT_ONCE_REFUSED = 2 };

/* Starts the server on a free loopback port (the configured limits, workers and time limit, no TLS,
 * no admin port), asks it GET /queens?mode=count&unique=true&n=N&part=I&parts=K over HTTP/1.0, prints
 * the answer's body and stops the server. Returns one of the exit codes above. */
int count_once_run(const puzzled_config *config);

#endif

/* Request ids: the client's X-Request-Id when it is safe to echo and log (1 to 64 characters from
 * [A-Za-z0-9._:-]), else one made here, unique within the process and unlikely to repeat across
 * replicas (a random 64-bit prefix drawn at start, then a counter). */
#ifndef PUZZLED_SERVER_REQUEST_ID_H
#define PUZZLED_SERVER_REQUEST_ID_H

#include <stdbool.h>

#define REQUEST_ID_MAX_LENGTH 64

/* Once at start-up. */
void request_id_start(void);

/* Fills `out` with the id for a request that sent `given` (may be NULL). */
void request_id_choose(char out[REQUEST_ID_MAX_LENGTH + 1], const char *given);

#endif

/* `puzzled --health-check`: asks a running puzzled for GET /healthz, for container HEALTHCHECKs that
 * must not need curl or wget in the image. */
#ifndef PUZZLED_SERVER_HEALTH_CHECK_H
#define PUZZLED_SERVER_HEALTH_CHECK_H

#include "server/config.h"

/* 0 when GET /healthz on the configured host and port answers 200 within 3 seconds, else 1. */
int health_check_run(const puzzled_config *config);

#endif

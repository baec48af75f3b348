/* See lifecycle_hooks.h. Test builds only: the pause polls for its file every HOOK_POLL_MS. */
#include "server/lifecycle_hooks.h"

#ifdef PUZZLED_LIFECYCLE_HOOKS
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* How often a paused thread looks for its release. */
#define HOOK_POLL_MS 1

static const char *const point_names[] = {
    [LIFECYCLE_RESUMED] = "resumed",
    [LIFECYCLE_RUNNING] = "running",
    [LIFECYCLE_COMPLETE] = "complete",
};

lifecycle_point lifecycle_hook_point(const char *header_value) {
    if (header_value == NULL) return LIFECYCLE_NOWHERE;
    for (size_t i = LIFECYCLE_RESUMED; i < sizeof point_names / sizeof point_names[0]; i++)
        if (strcmp(header_value, point_names[i]) == 0) return (lifecycle_point)i;
    return LIFECYCLE_NOWHERE;
}

void lifecycle_hook_pause(lifecycle_point armed, lifecycle_point at) {
    const char *dir = getenv("PUZZLED_LIFECYCLE_DIR");
    if (armed != at || dir == NULL) return;
    char reached[512], go[512];
    snprintf(reached, sizeof reached, "%s/%s.reached", dir, point_names[at]);
    snprintf(go, sizeof go, "%s/%s.go", dir, point_names[at]);
    FILE *mark = fopen(reached, "w");
    if (mark != NULL) fclose(mark);
    const struct timespec step = {0, HOOK_POLL_MS * 1000000L};
    while (access(go, F_OK) != 0) nanosleep(&step, NULL);
}
#else
typedef int lifecycle_hooks_not_built; /* ISO C wants a translation unit to declare something */
#endif

/* cJSON's allocation hooks (see json_allocation.h). */
#include "api/json_allocation.h"

#include <stdlib.h>

#include <cjson/cJSON.h>

static _Thread_local unsigned failures;

static void *counted_malloc(size_t size) {
    void *block = malloc(size);
    if (block == NULL) failures++;
    return block;
}

void json_allocation_install(void) {
    cJSON_Hooks hooks = {.malloc_fn = counted_malloc, .free_fn = free};
    cJSON_InitHooks(&hooks);
}

unsigned json_allocation_failures(void) { return failures; }

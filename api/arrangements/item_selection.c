/* Pool and selection classed together: both are read as one list (pool first), then the classes that
 * occur only in the selection are reported and the others renumbered (see item_selection.h). */
#include "api/arrangements/item_selection.h"

#include <stdlib.h>
#include <string.h>

#include "api/params.h"

/* The field names of a request: the pool's two and the selection's two. */
typedef struct field_names {
    const char *pool, *pool_text, *selection, *selection_text;
} field_names;

/* The pool's value and the selection's, checking the selection has the pool's shape. */
static bool find_values(api_request *req, const field_names *names, const cJSON **pool, const cJSON **selection,
                        const char **pool_field, const char **selection_field) {
    if (!param_exactly_one(req, names->pool, names->pool_text, true)) return false;
    bool text = param_present(req, names->pool_text);
    const char *wanted = text ? names->selection_text : names->selection;
    const char *other = text ? names->selection : names->selection_text;
    *pool_field = text ? names->pool_text : names->pool;
    if (param_present(req, other))
        return api_fail(req, API_CONFLICTING_FIELDS, other, "'%s' goes with '%s'; with '%s' give '%s'", other,
                        text ? names->pool : names->pool_text, *pool_field, wanted);
    if (!param_present(req, wanted))
        return api_fail(req, API_MISSING_FIELD, wanted, "'%s' is required: %s drawn from '%s'", wanted,
                        text ? "a string of characters" : "an array of values", *pool_field);
    *pool = cJSON_GetObjectItemCaseSensitive(req->params, *pool_field);
    *selection = cJSON_GetObjectItemCaseSensitive(req->params, wanted);
    *selection_field = wanted;
    return true;
}

/* The pool followed by the selection, as one array (of references) or one string. */
static cJSON *joined(const cJSON *pool, const cJSON *selection) {
    if (cJSON_IsString(pool)) {
        size_t a = strlen(pool->valuestring), b = strlen(selection->valuestring);
        char *text = malloc(a + b + 1);
        if (text == NULL) return NULL;
        memcpy(text, pool->valuestring, a);
        memcpy(text + a, selection->valuestring, b + 1);
        cJSON *value = cJSON_CreateString(text);
        free(text);
        return value;
    }
    cJSON *array = cJSON_CreateArray();
    for (int part = 0; part < 2 && array != NULL; part++)
        for (cJSON *v = (part ? selection : pool)->child; v != NULL; v = v->next)
            if (!cJSON_AddItemReferenceToArray(array, v)) {
                cJSON_Delete(array);
                return NULL;
            }
    return array;
}

/* Keeps the classes the pool holds (renumbered in the same order) in `pool`, taking texts from `all`. */
static bool keep_pool_classes(const item_classes *all, size_t n, const uint32_t *renumber, size_t m,
                              item_classes *pool) {
    pool->n = n;
    pool->m = m;
    pool->text = all->text;
    pool->classes = malloc((n ? n : 1) * sizeof *pool->classes);
    pool->mult = calloc(m ? m : 1, sizeof *pool->mult);
    pool->start = malloc((m + 1) * sizeof *pool->start);
    pool->texts = malloc(all->start[all->m] ? all->start[all->m] : 1);
    if (pool->classes == NULL || pool->mult == NULL || pool->start == NULL || pool->texts == NULL) return false;
    for (size_t i = 0; i < n; i++) {
        pool->classes[i] = renumber[all->classes[i]];
        pool->mult[pool->classes[i]]++;
    }
    size_t len = 0, kept = 0;
    for (size_t c = 0; c < all->m; c++) {
        if (renumber[c] == UINT32_MAX) continue;
        size_t size = all->start[c + 1] - all->start[c];
        pool->start[kept++] = len;
        memcpy(pool->texts + len, all->texts + all->start[c], size);
        len += size;
    }
    pool->start[m] = len;
    return true;
}

/* Checks every selected item against the pool's multiplicities and records the selection's classes. */
static bool check_selection(api_request *req, const char *field, const item_classes *all, size_t n,
                            const uint32_t *renumber, item_selection *s) {
    size_t *taken = calloc(s->pool.m ? s->pool.m : 1, sizeof *taken);
    s->classes = malloc((s->len ? s->len : 1) * sizeof *s->classes);
    bool ok = false;
    if (taken == NULL || s->classes == NULL) {
        api_fail_out_of_memory(req);
        goto out;
    }
    for (size_t i = 0; i < s->len; i++) {
        uint32_t original = all->classes[n + i], c = renumber[original];
        int length = (int)(all->start[original + 1] - all->start[original]);
        const char *text = length <= 60 ? all->texts + all->start[original] : "(a long value)";
        if (length > 60) length = (int)strlen(text); /* never cut a value: it could end mid-character */
        if (c == UINT32_MAX) {
            api_fail(req, API_INVALID_FIELD, field, "'%s' item %zu (from 0), %.*s, is not one of the items", field, i,
                     length, text);
            goto out;
        }
        if (++taken[c] > s->pool.mult[c]) {
            api_fail(req, API_INVALID_FIELD, field, "'%s' takes %.*s %zu times, but the items hold it only %zu times",
                     field, length, text, taken[c], s->pool.mult[c]);
            goto out;
        }
        s->classes[i] = c;
    }
    ok = true;
out:
    free(taken);
    return ok;
}

/* From `all`, the pool's `n` items followed by the selection: the pool with its classes renumbered from 0
 * (those only the selection holds dropped), and the selection checked against it. */
static bool split_classes(api_request *req, const char *field, const item_classes *all, size_t n, item_selection *s) {
    uint32_t *renumber = malloc((all->m ? all->m : 1) * sizeof *renumber);
    if (renumber == NULL) return api_fail_out_of_memory(req);
    size_t m = 0;
    for (size_t c = 0; c < all->m; c++) renumber[c] = UINT32_MAX;
    for (size_t i = 0; i < n; i++) renumber[all->classes[i]] = 0;
    for (size_t c = 0; c < all->m; c++)
        if (renumber[c] == 0) renumber[c] = (uint32_t)m++;
    bool ok = keep_pool_classes(all, n, renumber, m, &s->pool) ? check_selection(req, field, all, n, renumber, s)
                                                               : api_fail_out_of_memory(req);
    free(renumber);
    return ok;
}

bool item_selection_read(api_request *req, const char *pool_field, const char *pool_text_field,
                         const char *selection_field, const char *selection_text_field, size_t max_items,
                         item_selection *s) {
    memset(s, 0, sizeof *s);
    const field_names names = {pool_field, pool_text_field, selection_field, selection_text_field};
    const cJSON *pool_value = NULL, *selection_value = NULL;
    const char *field = NULL;
    if (!find_values(req, &names, &pool_value, &selection_value, &pool_field, &field)) return false;
    item_classes alone; /* each read alone first, so errors blame the right field */
    if (!item_classes_read_value(req, pool_field, pool_value, max_items, &alone)) return false;
    size_t n = alone.n;
    item_classes_free(&alone);
    if (!item_classes_read_value(req, field, selection_value, max_items, &alone)) return false;
    s->len = alone.n;
    item_classes_free(&alone);
    cJSON *both = joined(pool_value, selection_value);
    if (both == NULL) return api_fail_out_of_memory(req);
    item_classes all;
    bool ok = item_classes_read_value(req, pool_field, both, 2 * max_items, &all);
    cJSON_Delete(both);
    if (!ok) return false;
    ok = split_classes(req, field, &all, n, s);
    item_classes_free(&all);
    if (!ok) item_selection_free(s);
    return ok;
}

void item_selection_free(item_selection *s) {
    item_classes_free(&s->pool);
    free(s->classes);
    s->classes = NULL;
}

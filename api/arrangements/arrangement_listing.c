/* Streaming arrangements as JSON text (see arrangement_listing.h). */
#include "api/arrangements/arrangement_listing.h"

#include "api/params.h"

#include <stdlib.h>
#include <string.h>

/* Lines up to this long are copied with one fixed-size copy (the buffers keep this much slack). */
enum { SHORT_LINE = 32 };

/* Frees `l` and all it owns; NULL is allowed. */
static void arrangement_listing_free(void *state) {
    arrangement_listing *l = state;
    if (l == NULL) return;
    if (l->iter != NULL) l->free_iter(l->iter);
    item_classes_free(&l->items);
    free(l->total);
    free(l->next_offset);
    free(l->line);
    free(l->entry_end);
    free(l);
}

/* Room for the longest arrangement: every item once, with separators, quotes and a newline. */
static size_t longest_line(const item_classes *items) {
    size_t bytes = 4;
    for (size_t i = 0; i < items->n; i++) {
        uint32_t c = items->classes[i];
        bytes += 1 + items->start[c + 1] - items->start[c];
    }
    return bytes;
}

/* Sets fixed_line_len (and the shape) when every class is one byte and a line fits SHORT_LINE. */
static void prepare_fixed_line(arrangement_listing *l) {
    const item_classes *items = &l->items;
    size_t step = items->text ? 1 : 2, len = 1 + l->k * step + (items->text ? 1 : 0) + (l->ndjson ? 1 : 0);
    if (l->k == 0 || len > SHORT_LINE || items->m > sizeof l->entry_byte) return;
    for (size_t c = 0; c < items->m; c++) {
        if (items->start[c + 1] - items->start[c] != 1) return;
        l->entry_byte[c] = items->texts[items->start[c]];
    }
    memset(l->fixed_line, ',', SHORT_LINE);
    l->fixed_line[0] = items->text ? '"' : '[';
    size_t end = items->text ? 1 + l->k : 2 * l->k;
    l->fixed_line[end] = items->text ? '"' : ']';
    if (l->ndjson) l->fixed_line[end + 1] = '\n';
    l->fixed_line_len = end + 1 + (l->ndjson ? 1 : 0);
}

/* The offset of the first arrangement after the window [offset, offset + limit) of `count`, as
 * decimal, in *next; NULL there when the window reaches the end. False when out of memory. */
static bool write_next_offset(const mpz_t count, const mpz_t offset, uint64_t limit, char **next) {
    *next = NULL;
    if (mpz_cmp(offset, count) >= 0) return true;
    mpz_t end;
    mpz_init(end);
    mpz_add_ui(end, offset, limit); /* unsigned long is 64 bits, as start_blocks also takes */
    if (mpz_cmp(end, count) < 0) *next = mpz_get_str(NULL, 10, end);
    bool ok = mpz_cmp(end, count) >= 0 || *next != NULL;
    mpz_clear(end);
    return ok;
}

static bool prepare(arrangement_listing *l, const mpz_t count, const listing_options *o, bool ndjson) {
    l->k = o->k;
    l->left = o->limit;
    l->ndjson = ndjson;
    l->first = true;
    l->total = mpz_get_str(NULL, 10, count);
    if (!write_next_offset(count, o->offset, o->limit, &l->next_offset)) return false;
    l->entry_end = malloc((l->k ? l->k : 1) * sizeof *l->entry_end);
    l->line_room = longest_line(&l->items);
    l->line = calloc(1, l->line_room + SHORT_LINE);
    if (l->line != NULL) l->line[0] = l->items.text ? '"' : '[';
    prepare_fixed_line(l);
    return l->total != NULL && l->entry_end != NULL && l->line != NULL;
}

static void write_total(const arrangement_listing *l, const char *kind, json_writer *out) {
    bb_clear(out);
    api_open_answer(out, kind);
    jw_str(out, "\"total\":\"");
    jw_str(out, l->total);
    jw_str(out, "\"}");
}


/* Rewrites line from entry `from` on and writes the whole arrangement (after a separator unless it
 * is the first) at `to`, which has room for it plus SHORT_LINE bytes; returns the end. */
static char *write_arrangement(arrangement_listing *l, const uint32_t *a, size_t from, char *to) {
    const item_classes *items = &l->items;
    if (l->fixed_line_len > 0) {
        if (!l->first && !l->ndjson) *to++ = ',';
        memcpy(to, l->fixed_line, SHORT_LINE);
        size_t step = items->text ? 1 : 2;
        for (size_t i = 0; i < l->k; i++) to[1 + step * i] = l->entry_byte[a[i]];
        l->first = false;
        return to + l->fixed_line_len;
    }
    size_t len = from == 0 ? 1 : l->entry_end[from - 1];
    for (size_t i = from; i < l->k; i++) {
        if (i > 0 && !items->text) l->line[len++] = ',';
        const char *text = items->texts + items->start[a[i]];
        size_t size = items->start[a[i] + 1] - items->start[a[i]];
        for (size_t b = 0; b < size; b++) l->line[len + b] = text[b]; /* mostly one or two bytes */
        len += size;
        l->entry_end[i] = len;
    }
    if (!l->first && !l->ndjson) *to++ = ',';
    if (len <= SHORT_LINE) memcpy(to, l->line, SHORT_LINE); /* a fixed size compiles to a few moves */
    else memcpy(to, l->line, len);
    to += len;
    *to++ = items->text ? '"' : ']';
    if (l->ndjson) *to++ = '\n';
    l->first = false;
    return to;
}

/* Writes arrangements straight into `out` until it has grown by `want` or the listing ends. */
static void write_items(arrangement_listing *l, json_writer *out, size_t start, size_t want) {
    size_t most = l->line_room + 2; /* an arrangement, its separator and newline */
    /* a run of arrangements (at least one) reserved at once between two checks of `want` */
    size_t run = (API_STREAM_RUN_BYTES - SHORT_LINE) / most > 0 ? (API_STREAM_RUN_BYTES - SHORT_LINE) / most : 1;
    while (l->part == LISTING_ITEMS && out->len - start < want) {
        if (!bb_reserve(out, run * most + SHORT_LINE)) return;
        char *to = out->data + out->len;
        for (size_t i = 0; i < run; i++) {
            size_t changed;
            const uint32_t *a = l->next(l->iter, &changed);
            if (a == NULL) {
                l->part = LISTING_TAIL;
                break;
            }
            to = write_arrangement(l, a, l->first ? 0 : changed, to);
            if (--l->left == 0) {
                l->part = LISTING_TAIL;
                break;
            }
        }
        *to = '\0';
        out->len = (size_t)(to - out->data);
    }
}

/* Writes the next bytes of a listing by blocks straight into `out` until it has grown by `want` (or
 * exactly to the listing's end). */
static void write_blocks(arrangement_listing *l, json_writer *out, size_t start, size_t want) {
    size_t room = out->len - start < want ? want - (out->len - start) : 0;
    if (room > l->blocks.left) room = (size_t)l->blocks.left;
    if (!bb_reserve(out, room)) return;
    out->len += permutation_blocks_write(&l->blocks, out->data + out->len, room);
    out->data[out->len] = '\0';
    if (l->blocks.left == 0) l->part = LISTING_TAIL;
}

static stream_status next_part(void *state, json_writer *out, size_t want) {
    arrangement_listing *l = state;
    size_t start = out->len;
    if (l->part == LISTING_HEAD) {
        if (!l->ndjson) {
            api_open_answer(out, l->list_key);
            jw_str(out, "\"total\":\"");
            jw_str(out, l->total);
            jw_str(out, "\",");
            api_write_next_offset(out, l->next_offset);
            jw_str(out, ",\"");
            jw_str(out, l->list_key);
            jw_str(out, "\":[");
        }
        bool any = l->by_blocks ? l->blocks.left > 0 : l->iter != NULL && l->left > 0;
        l->part = any ? LISTING_ITEMS : LISTING_TAIL;
    }
    if (l->by_blocks) write_blocks(l, out, start, want);
    else write_items(l, out, start, want);
    if (out->out_of_memory) return STREAM_FAILED;
    if (l->part != LISTING_TAIL) return STREAM_MORE;
    if (!l->ndjson) jw_str(out, "]}");
    return STREAM_DONE;
}

/* Prepares `l` and answers {"kind":total_kind,"total":"..."} (count_only) or streams the listing,
 * taking `l`. False (a 500) when out of memory. */
static bool respond(api_request *req, api_response *res, arrangement_listing *l, const mpz_t count,
                    const listing_options *o, const char *total_kind) {
    bool ok = prepare(l, count, o, req->ndjson);
    if (!ok) {
        api_fail_out_of_memory(req);
        goto out;
    }
    if (o->count_only) {
        write_total(l, total_kind, &res->body);
        goto out;
    }
    api_respond_bounded_stream(req, res, l, next_part, arrangement_listing_free, req->ndjson);
    l = NULL; /* the stream's now */
out:
    arrangement_listing_free(l);
    return ok;
}

static bool read_options(api_request *req, listing_options *o) {
    int64_t limit;
    bool present;
    o->distinct = param_flag(req, "distinct", false);
    o->count_only = param_flag(req, "count_only", false);
    if (!param_big_uint(req, "offset", o->offset, &present) ||
        !param_int(req, "limit", 0, API_MAX_EXACT_INTEGER, API_MAX_EXACT_INTEGER, &limit))
        return false;
    o->limit = param_present(req, "limit") ? (uint64_t)limit : req->ndjson ? UINT64_MAX : req->limits->default_page;
    return true;
}

/* Starts the listing's iterator on the offset-th arrangement (below the count). */
static bool start_iterator(api_request *req, arrangement_listing *l, const arrangement_kind *kind, const void *spec,
                           const mpz_t offset) {
    void *iter = malloc(kind->iter_size);
    core_status status = iter == NULL ? CORE_NO_MEMORY : kind->iter_init(iter, spec, offset, &req->deadline);
    if (status == CORE_OK) l->iter = iter;
    else free(iter);
    return api_fail_status(req, status);
}

/* Starts a listing by blocks on the offset-th ordering, when the kind and the items allow it (the
 * offset is below the count); true when it did. */
static bool start_blocks(arrangement_listing *l, const arrangement_kind *kind, const void *spec,
                         const listing_options *o, const mpz_t count, bool ndjson) {
    if (kind->every_ordering == NULL || !kind->every_ordering(spec) || !permutation_blocks_fit(&l->items)) return false;
    uint64_t offset = mpz_get_ui(o->offset), total = mpz_get_ui(count); /* n! fits: n <= BLOCK_MAX_ITEMS */
    uint64_t lines = total - offset < o->limit ? total - offset : o->limit;
    l->by_blocks = permutation_blocks_start(&l->blocks, &l->items, ndjson, offset, lines);
    return l->by_blocks;
}

bool arrangement_listing_answer(api_request *req, api_response *res, const arrangement_kind *kind, void *spec) {
    arrangement_listing *l = calloc(1, sizeof *l);
    if (l == NULL) return api_fail_out_of_memory(req);
    l->next = kind->next;
    l->free_iter = kind->free_iter;
    l->list_key = kind->list_key;
    listing_options o = {0};
    mpz_init(o.offset);
    mpz_t count;
    mpz_init(count);
    bool ok = false;
    if (!item_classes_read(req, "items", req->limits->max_rank_items, &l->items) || !read_options(req, &o) ||
        !kind->read(req, &l->items, &o, spec) || !api_fail_status(req, kind->count(count, spec, &req->deadline)))
        goto out;
    if (!o.count_only && mpz_cmp(o.offset, count) < 0 && !start_blocks(l, kind, spec, &o, count, req->ndjson) &&
        !start_iterator(req, l, kind, spec, o.offset))
        goto out;
    ok = respond(req, res, l, count, &o, kind->total_kind);
    l = NULL; /* taken by the answer */
out:
    arrangement_listing_free(l);
    mpz_clears(o.offset, count, NULL);
    return ok;
}

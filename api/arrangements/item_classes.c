/* Items "by value": sort the input once, number the distinct values, keep each one's output text. */
#include "api/arrangements/item_classes.h"

#include <stdlib.h>
#include <string.h>

#include "api/params.h"
#include "core/common/utf8.h"

enum { KIND_NUMBER, KIND_STRING, KIND_OTHER };

typedef struct item_key {
    int kind;
    double number;
    const char *text;   /* the string (KIND_STRING) or compact JSON text (KIND_OTHER) */
    size_t length;      /* of text */
    const cJSON *value; /* the array item, for `items` input */
    size_t index;       /* input position */
} item_key;

static int compare_bytes(const item_key *a, const item_key *b) {
    size_t shorter = a->length < b->length ? a->length : b->length;
    int c = memcmp(a->text, b->text, shorter);
    if (c != 0) return c;
    return (a->length > b->length) - (a->length < b->length);
}

/* The value order; 0 means "the same item". UTF-8 byte order is code point order. */
static int compare_values(const item_key *a, const item_key *b) {
    if (a->kind != b->kind) return a->kind - b->kind;
    if (a->kind == KIND_NUMBER) return (a->number > b->number) - (a->number < b->number);
    return compare_bytes(a, b);
}

static int compare_keys(const void *x, const void *y) {
    int c = compare_values(x, y);
    if (c != 0) return c;
    const item_key *a = x, *b = y;
    return (a->index > b->index) - (a->index < b->index); /* stable: the first occurrence leads */
}

/* Sorts keys stably by a 64-bit sort key (`key_of`): an LSD radix sort of (key, position) records, a
 * byte per pass, skipping the bytes all keys share, then one gather of the keys. This is the order
 * qsort gave with compare_keys for all-number arrays (keys start in input order, and the sort is
 * stable, so the first occurrence leads), in a few linear passes over 16-byte
 * records instead of n log n calls moving 56-byte keys (10^6 items: most of the parsing time). */
typedef struct radix_record {
    uint64_t key;
    uint64_t position;
} radix_record;

/* Fewer numbers than this are sorted by qsort, in the same order: its few comparisons cost less than
 * the radix sort's counting tables (8 x 256 counts zeroed and summed, whatever n). */
#define RADIX_SORT_MIN_ITEMS 64

static bool radix_sort_keys(item_key *keys, size_t n, uint64_t (*key_of)(const item_key *)) {
    enum { DIGITS = 8, RADIX = 256 };
    radix_record *from = malloc((n ? n : 1) * sizeof *from), *to = malloc((n ? n : 1) * sizeof *to);
    item_key *sorted = malloc((n ? n : 1) * sizeof *sorted);
    size_t(*counts)[RADIX] = calloc(DIGITS, sizeof *counts);
    bool ok = from != NULL && to != NULL && sorted != NULL && counts != NULL;
    if (!ok) goto out;
    for (size_t i = 0; i < n; i++) {
        from[i] = (radix_record){key_of(&keys[i]), i};
        for (unsigned d = 0; d < DIGITS; d++) counts[d][(from[i].key >> (8 * d)) & 0xFF]++;
    }
    for (unsigned d = 0; d < DIGITS; d++) {
        if (n == 0 || counts[d][(from[0].key >> (8 * d)) & 0xFF] == n) continue; /* one value: order kept */
        size_t next[RADIX], at = 0;
        for (unsigned v = 0; v < RADIX; v++) {
            next[v] = at;
            at += counts[d][v];
        }
        for (size_t i = 0; i < n; i++) to[next[(from[i].key >> (8 * d)) & 0xFF]++] = from[i];
        radix_record *swap = from;
        from = to;
        to = swap;
    }
    for (size_t i = 0; i < n; i++) sorted[i] = keys[from[i].position];
    memcpy(keys, sorted, n * sizeof *keys);
out:
    free(from);
    free(to);
    free(sorted);
    free(counts);
    return ok;
}

/* The double's bits made to sort as unsigned integers in numeric order (-0 as 0: the same item). */
static uint64_t number_sort_key(const item_key *key) {
    double number = key->number == 0 ? 0.0 : key->number;
    uint64_t bits;
    memcpy(&bits, &number, sizeof bits);
    return bits >> 63 ? ~bits : bits | (UINT64_C(1) << 63);
}

/* Numbers the sorted keys into classes and records each class's text (written by write_text). */
static bool assign_classes(item_classes *items, item_key *keys, int (*same)(const item_key *, const item_key *),
                           void (*write_text)(json_writer *, const item_key *)) {
    size_t n = items->n;
    items->classes = malloc((n ? n : 1) * sizeof *items->classes);
    items->mult = malloc((n ? n : 1) * sizeof *items->mult);
    items->start = malloc((n + 1) * sizeof *items->start);
    if (items->classes == NULL || items->mult == NULL || items->start == NULL) return false;
    json_writer texts;
    bb_init(&texts);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || same(&keys[i - 1], &keys[i]) != 0) {
            items->start[m] = texts.len;
            items->mult[m] = 0;
            write_text(&texts, &keys[i]);
            m++;
        }
        items->classes[keys[i].index] = (uint32_t)(m - 1);
        items->mult[m - 1]++;
    }
    items->start[m] = texts.len;
    items->m = m;
    items->texts = texts.data;
    return !texts.out_of_memory;
}

/* A code point as it appears inside a JSON string: the escaped form of its `length` bytes without
 * the quotes. */
static void write_code_text(json_writer *out, const char *bytes, size_t length) {
    json_writer quoted;
    bb_init(&quoted);
    jw_string(&quoted, bytes, length);
    if (quoted.out_of_memory) out->out_of_memory = true;
    else bb_append(out, quoted.data + 1, quoted.len - 2);
    bb_free(&quoted);
}

/* The code points present in a text: a bitmap of all of Unicode with the count of present code
 * points before each 64-bit word, so that a code point's class, its rank among them, is a lookup and
 * a popcount (209 KB, in cache). Texts need no sort: 10^6 letters cost 0.1-0.2 s sorted as keys. */
enum { CODE_POINTS = 0x110000, CODE_WORDS = CODE_POINTS / 64 };

typedef struct code_set {
    uint64_t present[CODE_WORDS];
    uint32_t before[CODE_WORDS];
} code_set;

static uint32_t code_class(const code_set *set, uint32_t code) {
    uint64_t below = (UINT64_C(1) << (code % 64)) - 1;
    return set->before[code / 64] + (uint32_t)__builtin_popcountll(set->present[code / 64] & below);
}

/* The classes of a text read into `codes`, with `firsts` (the offsets of each code point's first
 * occurrence, in order of appearance) giving each class's text. */
static bool assign_code_classes(item_classes *items, const char *text, size_t bytes, const uint32_t *codes,
                                code_set *set, const size_t *firsts, size_t m) {
    size_t n = items->n;
    items->classes = malloc((n ? n : 1) * sizeof *items->classes);
    items->mult = calloc(m ? m : 1, sizeof *items->mult);
    items->start = malloc((m + 1) * sizeof *items->start);
    size_t *first_of_class = malloc((m ? m : 1) * sizeof *first_of_class);
    json_writer texts;
    bb_init(&texts);
    bool ok = items->classes != NULL && items->mult != NULL && items->start != NULL && first_of_class != NULL;
    if (!ok) goto out;
    uint32_t before = 0;
    for (size_t w = 0; w < CODE_WORDS; w++) {
        set->before[w] = before;
        before += (uint32_t)__builtin_popcountll(set->present[w]);
    }
    uint32_t code;
    for (size_t j = 0; j < m; j++) {
        utf8_decode_one((const unsigned char *)text + firsts[j], bytes - firsts[j], &code); /* valid: read before */
        first_of_class[code_class(set, code)] = firsts[j];
    }
    for (size_t c = 0; c < m; c++) {
        items->start[c] = texts.len;
        size_t length =
            utf8_decode_one((const unsigned char *)text + first_of_class[c], bytes - first_of_class[c], &code);
        write_code_text(&texts, text + first_of_class[c], length);
    }
    items->start[m] = texts.len;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = code_class(set, codes[i]);
        items->classes[i] = c;
        items->mult[c]++;
    }
    items->m = m;
    items->texts = texts.data;
    ok = !texts.out_of_memory;
out:
    free(first_of_class);
    if (!ok && items->texts == NULL) bb_free(&texts);
    return ok;
}

static bool read_text(api_request *req, const char *field, const char *text, size_t max_items, item_classes *items) {
    size_t bytes = strlen(text), n = 0, m = 0;
    size_t most_distinct = bytes < CODE_POINTS ? bytes : CODE_POINTS;
    uint32_t *codes = malloc((bytes ? bytes : 1) * sizeof *codes);
    size_t *firsts = malloc((most_distinct ? most_distinct : 1) * sizeof *firsts);
    code_set *set = calloc(1, sizeof *set);
    bool ok = false, reported = false;
    if (codes == NULL || firsts == NULL || set == NULL) goto out;
    for (size_t at = 0; at < bytes;) {
        uint32_t code;
        size_t len = utf8_decode_one((const unsigned char *)text + at, bytes - at, &code);
        if (len == 0) {
            reported = !api_fail(req, API_INVALID_FIELD, field, "'%s' must be valid UTF-8; byte %zu is not", field, at);
            goto out;
        }
        uint64_t bit = UINT64_C(1) << (code % 64);
        if ((set->present[code / 64] & bit) == 0) {
            set->present[code / 64] |= bit;
            firsts[m++] = at;
        }
        codes[n++] = code;
        at += len;
    }
    if (n > max_items) {
        api_fail(req, API_TOO_LARGE, field, "'%s' has %zu characters; at most %zu are allowed", field, n, max_items);
        reported = !api_fail_range(req, 0, (long long)max_items, (long long)n);
        goto out;
    }
    items->n = n;
    items->text = true;
    ok = assign_code_classes(items, text, bytes, codes, set, firsts, m);
out:
    free(codes);
    free(firsts);
    free(set);
    if (!ok && !reported) api_fail_out_of_memory(req);
    return ok;
}

/* A whole number from the key itself: the keys are in value order, their cJSON nodes in input order,
 * so reading the node would miss cache once an item (10^6 distinct numbers: 0.1-0.2 s). */
static void write_value_text(json_writer *out, const item_key *key) {
    if (key->kind == KIND_NUMBER && jw_exact_integer(out, key->number)) return;
    jw_cjson(out, key->value);
}

static bool read_array(api_request *req, const char *field, const cJSON *array, size_t max_items, item_classes *items) {
    size_t n = (size_t)cJSON_GetArraySize(array);
    if (n > max_items) {
        api_fail(req, API_TOO_LARGE, field, "'%s' has %zu items; at most %zu are allowed", field, n, max_items);
        return api_fail_range(req, 0, (long long)max_items, (long long)n);
    }
    item_key *keys = malloc((n ? n : 1) * sizeof *keys);
    json_writer other; /* compact JSON text of the values that are neither numbers nor strings */
    bb_init(&other);
    size_t *other_start = malloc((n ? n : 1) * sizeof *other_start);
    bool ok = false;
    if (keys == NULL || other_start == NULL) goto out;
    size_t i = 0;
    bool all_numbers = true;
    for (const cJSON *value = array->child; value != NULL; value = value->next, i++) {
        keys[i] = (item_key){.index = i, .value = value};
        other_start[i] = other.len;
        if (cJSON_IsNumber(value)) {
            keys[i].kind = KIND_NUMBER;
            keys[i].number = value->valuedouble;
        } else if (cJSON_IsString(value)) {
            all_numbers = false;
            keys[i].kind = KIND_STRING;
            keys[i].text = value->valuestring;
            keys[i].length = strlen(value->valuestring);
        } else {
            all_numbers = false;
            keys[i].kind = KIND_OTHER;
            jw_cjson(&other, value);
            keys[i].length = other.len - other_start[i];
        }
    }
    if (other.out_of_memory) goto out;
    for (i = 0; i < n; i++)
        if (keys[i].kind == KIND_OTHER) keys[i].text = other.data + other_start[i];
    items->n = n;
    if (all_numbers && n >= RADIX_SORT_MIN_ITEMS) {
        if (!radix_sort_keys(keys, n, number_sort_key)) goto out;
    } else {
        qsort(keys, n, sizeof *keys, compare_keys);
    }
    ok = assign_classes(items, keys, compare_values, write_value_text);
out:
    bb_free(&other);
    free(other_start);
    free(keys);
    return ok || api_fail_out_of_memory(req);
}

/* A failed read keeps nothing: what assign_classes() had allocated is freed. */
static bool kept_if(bool ok, item_classes *items) {
    if (!ok) item_classes_free(items);
    return ok;
}

bool item_classes_read(api_request *req, const char *array_field, size_t max_items, item_classes *items) {
    memset(items, 0, sizeof *items);
    if (!param_exactly_one(req, array_field, "text", true)) return false;
    const char *text = param_string(req, "text");
    if (text != NULL) return kept_if(read_text(req, "text", text, max_items, items), items);
    return kept_if(read_array(req, array_field, param_array(req, array_field), max_items, items), items);
}

bool item_classes_read_value(api_request *req, const char *field, const cJSON *value, size_t max_items,
                             item_classes *items) {
    memset(items, 0, sizeof *items);
    if (cJSON_IsString(value)) return kept_if(read_text(req, field, value->valuestring, max_items, items), items);
    return kept_if(read_array(req, field, value, max_items, items), items);
}

size_t item_classes_count(const api_request *req, const char *field, size_t max) {
    const char *text = param_string(req, field);
    if (text != NULL) return strnlen(text, max + 1);
    const cJSON *array = param_array(req, field);
    size_t count = 0;
    for (const cJSON *value = array ? array->child : NULL; value != NULL && count <= max; value = value->next) count++;
    return count;
}

bool item_classes_over(const api_request *req, const char *field, size_t max) {
    return item_classes_count(req, field, max) > max;
}

void item_classes_free(item_classes *items) {
    free(items->classes);
    free(items->mult);
    free(items->texts);
    free(items->start);
    memset(items, 0, sizeof *items);
}

/* Room for the texts of any arrangement, whose items are each class at most its multiplicity times:
 * reserved at once, the items are then copied in with no check each (10^6 items: 0.05-0.1 s less). */
static size_t arrangement_room(const item_classes *items) {
    size_t room = 2 + items->n; /* the brackets or quotes, and the commas */
    for (size_t c = 0; c < items->m; c++) room += items->mult[c] * (items->start[c + 1] - items->start[c]);
    return room;
}

void item_classes_write(const item_classes *items, json_writer *out, const uint32_t *arrangement, size_t len) {
    if (!bb_reserve(out, arrangement_room(items))) return;
    char *to = out->data + out->len;
    *to++ = items->text ? '"' : '[';
    for (size_t i = 0; i < len; i++) {
        if (i > 0 && !items->text) *to++ = ',';
        uint32_t c = arrangement[i];
        size_t length = items->start[c + 1] - items->start[c];
        memcpy(to, items->texts + items->start[c], length);
        to += length;
    }
    *to++ = items->text ? '"' : ']';
    *to = '\0';
    out->len = (size_t)(to - out->data);
}

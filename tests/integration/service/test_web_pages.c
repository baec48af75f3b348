/* Integration tests of the pages served from the binary (api/service/web_pages.c): each path answers the
 * bytes of its file in web/ (for /docs, the page web/docs.py wrote into the build's web/) with its media type; the HTML pages, and only they, carry the
 * Content-Security-Policy and Referrer-Policy; the files get ETags, 304s and Cache-Control: no-cache. What the pages do in a
 * browser is tests/browser/'s subject. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

typedef struct web_file {
    const char *path;   /* served at */
    const char *source; /* under web/ */
    const char *content_type;
    bool page; /* HTML: carries the security policy */
} web_file;

static const web_file files[] = {
    {"/", "index.html", "text/html; charset=utf-8", true},
    {"/docs", "docs.html", "text/html; charset=utf-8", true},
    {"/playground.css", "playground.css", "text/css; charset=utf-8", false},
    {"/playground.js", "playground.js", "text/javascript; charset=utf-8", false},
    {"/answers.js", "answers.js", "text/javascript; charset=utf-8", false},
    {"/pictures.js", "pictures.js", "text/javascript; charset=utf-8", false},
    {"/play.js", "play.js", "text/javascript; charset=utf-8", false},
    {"/markdown.js", "markdown.js", "text/javascript; charset=utf-8", false},
    {"/spec-worker.js", "spec-worker.js", "text/javascript; charset=utf-8", false},
    {"/docs.css", "docs.css", "text/css; charset=utf-8", false},
    {"/vendor/js-yaml.js", "vendor/js-yaml/js-yaml.umd.min.js", "text/javascript; charset=utf-8", false},
    {"/vendor/puzzled-client.js", "vendor/puzzled-client/puzzled-client.min.js", "text/javascript; charset=utf-8",
     false},
};

/* The whole file web/<source>, its length in *length: from the build tree's web/, which holds the
 * pages written at build time (docs.html, by web/docs.py), else from the source tree's. */
static char *read_source(const char *source, size_t *length) {
    const char *build = getenv("PUZZLED_BUILD_DIR"), *root = getenv("PUZZLED_SOURCE_DIR");
    cr_assert(build != NULL && root != NULL, "PUZZLED_BUILD_DIR and PUZZLED_SOURCE_DIR must be set");
    char name[1024];
    snprintf(name, sizeof name, "%s/web/%s", build, source);
    FILE *file = fopen(name, "rb");
    if (file == NULL) {
        snprintf(name, sizeof name, "%s/web/%s", root, source);
        file = fopen(name, "rb");
    }
    cr_assert_not_null(file, "cannot open %s", name);
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    rewind(file);
    char *bytes = malloc((size_t)size + 1);
    cr_assert_eq(fread(bytes, 1, (size_t)size, file), (size_t)size);
    fclose(file);
    *length = (size_t)size;
    return bytes;
}

static void expect_header(const http_result *r, const char *name, const char *expected, const char *path) {
    char *value = http_header(r, name);
    if (expected == NULL) {
        cr_assert_null(value, "%s: unexpected %s: %s", path, name, value);
        return;
    }
    cr_assert_not_null(value, "%s: no %s", path, name);
    cr_assert_str_eq(value, expected, "%s: %s", path, name);
    free(value);
}

Test(web_pages, every_file_is_served_byte_for_byte_with_its_media_type) {
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        size_t length;
        char *expected = read_source(files[i].source, &length);
        http_result r = http_get(files[i].path);
        cr_assert_eq(r.status, 200, "%s: %ld", files[i].path, r.status);
        cr_assert_eq(r.body_len, length, "%s: %zu bytes, web/%s has %zu", files[i].path, r.body_len, files[i].source,
                     length);
        cr_assert(memcmp(r.body, expected, length) == 0, "%s differs from web/%s (rebuild?)", files[i].path,
                  files[i].source);
        expect_header(&r, "Content-Type", files[i].content_type, files[i].path);
        expect_header(&r, "X-Content-Type-Options", "nosniff", files[i].path);
        expect_header(&r, "Cache-Control", "public, no-cache", files[i].path);
        http_result_free(&r);
        free(expected);
    }
}

Test(web_pages, html_pages_alone_carry_the_security_policy) {
    static const char policy[] = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
                                 "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
                                 "frame-ancestors 'none'";
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        http_result r = http_get(files[i].path);
        expect_header(&r, "Content-Security-Policy", files[i].page ? policy : NULL, files[i].path);
        expect_header(&r, "Referrer-Policy", files[i].page ? "no-referrer" : NULL, files[i].path);
        http_result_free(&r);
    }
    http_result json = http_get("/queens?n=4");
    expect_header(&json, "Content-Security-Policy", NULL, "/queens");
    http_result_free(&json);
}

Test(web_pages, a_conditional_get_of_a_page_is_304) {
    http_result first = http_get("/");
    char *tag = http_header(&first, "ETag");
    cr_assert_not_null(tag, "no ETag on /");
    char condition[128];
    snprintf(condition, sizeof condition, "If-None-Match: %s", tag);
    const char *const headers[] = {condition, NULL};
    http_result again = http_request(server_url(), "GET", "/", NULL, headers);
    cr_assert_eq(again.status, 304);
    cr_assert_eq(again.body_len, 0);
    expect_header(&again, "Cache-Control", "public, no-cache", "/ (304)");
    free(tag);
    http_result_free(&first);
    http_result_free(&again);
}

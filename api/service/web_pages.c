/* GET /, /docs and the files they load: the playground (web/index.html, its scripts and its worker), the API
 * reference (docs.html, written from openapi.yaml by web/docs.py at build time, and web/docs.css), compiled into the binary like openapi.yaml
 * (CMakeLists.txt, cmake/embed_file.cmake), so a deployment serves them with no file at run time.
 *
 * The HTML pages carry a Content-Security-Policy (added by the server with Referrer-Policy, see
 * api_response.content_security_policy): this origin's files only, no inline script, no framing.
 * web_pages_digest() (api/service/web_pages.h) lets the server's ETags follow the files' contents. */
#include "api/service/web_pages.h"

#include <stdio.h>

#include "api/endpoints.h"

/* The playground and the reference: nothing from elsewhere, no inline script or style, and the only
 * connections are to this service; images may also be blob: URLs (an SVG answer shown by the page). */
static const char strict_policy[] =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'";

static const api_field no_fields[] = {{NULL, 0}};

static bool answer_file(api_response *res, const char *content_type, const char *policy, const char *text,
                        size_t length) {
    res->content_type = content_type;
    res->content_security_policy = policy;
    res->fixed_body = text;
    res->fixed_length = length;
    return true;
}

/* One endpoint per embedded file: `symbol` is the file's name made into a C identifier by CMake.
 * Revalidated before each reuse: after an upgrade a browser never mixes old and new files. */
#define WEB_FILE(endpoint, symbol, content_type, policy)                               \
    extern const char symbol##_text[];                                                 \
    extern const size_t symbol##_length;                                               \
    static bool answer_##symbol(api_request *req, api_response *res) {                 \
        (void)req;                                                                     \
        return answer_file(res, content_type, policy, symbol##_text, symbol##_length); \
    }                                                                                  \
    const api_endpoint endpoint = {.fields = no_fields, .handler = answer_##symbol, .revalidate = true};

#define HTML "text/html; charset=utf-8"
#define CSS "text/css; charset=utf-8"
#define SCRIPT "text/javascript; charset=utf-8"

/* The files: endpoint, embedded symbol, media type, security policy (HTML pages only). */
#define WEB_FILES(X)                                                             \
    X(web_playground_endpoint, web_index_html, HTML, strict_policy)              \
    X(web_docs_endpoint, web_docs_html, HTML, strict_policy)                     \
    X(web_playground_css_endpoint, web_playground_css, CSS, NULL)                \
    X(web_playground_js_endpoint, web_playground_js, SCRIPT, NULL)               \
    X(web_answers_js_endpoint, web_answers_js, SCRIPT, NULL)                     \
    X(web_pictures_js_endpoint, web_pictures_js, SCRIPT, NULL)                   \
    X(web_play_js_endpoint, web_play_js, SCRIPT, NULL)                           \
    X(web_markdown_js_endpoint, web_markdown_js, SCRIPT, NULL)                   \
    X(web_spec_worker_js_endpoint, web_spec_worker_js, SCRIPT, NULL)             \
    X(web_docs_css_endpoint, web_docs_css, CSS, NULL)                            \
    X(web_js_yaml_endpoint, web_vendor_js_yaml_js_yaml_umd_min_js, SCRIPT, NULL) \
    X(web_puzzled_client_endpoint, web_vendor_puzzled_client_puzzled_client_min_js, SCRIPT, NULL)

WEB_FILES(WEB_FILE)

/* The digest: FNV-1a (64 bits, constants from the FNV specification) over every embedded file. */
extern const char openapi_spec_text[];
extern const size_t openapi_spec_length;

typedef struct embedded_file {
    const char *text;
    const size_t *length;
} embedded_file;

#define DIGESTED(endpoint, symbol, content_type, policy) {symbol##_text, &symbol##_length},
static const embedded_file embedded[] = {WEB_FILES(DIGESTED){openapi_spec_text, &openapi_spec_length}};

void web_pages_digest(char out[WEB_PAGES_DIGEST_SIZE]) {
    uint64_t hash = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < sizeof embedded / sizeof embedded[0]; i++) {
        for (size_t at = 0; at < *embedded[i].length; at++) {
            hash ^= (unsigned char)embedded[i].text[at];
            hash *= UINT64_C(0x100000001b3);
        }
    }
    snprintf(out, WEB_PAGES_DIGEST_SIZE, "%016llx", (unsigned long long)hash);
}

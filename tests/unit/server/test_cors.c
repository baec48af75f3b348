/* --cors-origin: "*" or a list of origins, the request's Origin echoed only when listed (server/cors.h). */
#include <criterion/criterion.h>

#include "server/cors.h"

static const char *const LIST = "https://puzzles.example, http://localhost:5173";

Test(cors, a_star_lets_every_page_read_and_does_not_vary) {
    cr_assert_str_eq(cors_allowed_origin("*", "https://anywhere.example"), "*");
    cr_assert_str_eq(cors_allowed_origin("*", NULL), "*");
    cr_assert_not(cors_varies("*"));
}

Test(cors, a_listed_origin_is_echoed_and_any_other_gets_nothing) {
    cr_assert_str_eq(cors_allowed_origin(LIST, "https://puzzles.example"), "https://puzzles.example");
    cr_assert_str_eq(cors_allowed_origin(LIST, "http://localhost:5173"), "http://localhost:5173");
    cr_assert_null(cors_allowed_origin(LIST, "http://localhost:5174"), "another port is another origin");
    cr_assert_null(cors_allowed_origin(LIST, "https://puzzles.example.evil"), "no prefix match");
    cr_assert_null(cors_allowed_origin(LIST, "https://puzzles"), "no prefix match the other way");
    cr_assert_null(cors_allowed_origin(LIST, "http://puzzles.example"), "another scheme is another origin");
    cr_assert_null(cors_allowed_origin(LIST, NULL), "no Origin: nothing to allow");
    cr_assert(cors_varies(LIST));
}

Test(cors, only_origins_make_a_list) {
    char why[256];
    cr_assert(cors_origins_valid("*", why, sizeof why));
    cr_assert(cors_origins_valid(LIST, why, sizeof why));
    cr_assert(cors_origins_valid("http://127.0.0.1:8080", why, sizeof why));
    const char *const wrong[] = {"",
                                 " , ",
                                 "puzzles.example",
                                 "https://puzzles.example/",
                                 "https://a.example:",
                                 "ftp://a.example",
                                 "https://A.example",
                                 "*, https://a.example",
                                 "https://",
                                 "https://a.example:80x"};
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++)
        cr_assert_not(cors_origins_valid(wrong[i], why, sizeof why), "'%s' accepted", wrong[i]);
    cr_assert(strstr(why, "not an origin") != NULL, "%s", why);
}

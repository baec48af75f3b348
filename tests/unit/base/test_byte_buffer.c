/* Unit tests for base/byte_buffer: the bytes read back are the bytes appended, across growth, a
 * borrowed start and consumption from the front. */
#include <criterion/criterion.h>
#include <string.h>

#include "base/byte_buffer.h"

Test(byte_buffer, appends_grow_and_keep_every_byte_and_the_nul) {
    byte_buffer b;
    bb_init(&b);
    bb_append(&b, NULL, 0); /* nothing to copy: the empty buffer's NULL data is never touched */
    char expected[1000];
    for (size_t i = 0; i < sizeof expected; i++) {
        expected[i] = (char)('a' + i % 26);
        bb_append(&b, &expected[i], 1);
    }
    cr_assert(!b.out_of_memory && b.len == sizeof expected && b.cap > b.len && b.data[b.len] == '\0');
    cr_assert(memcmp(b.data, expected, sizeof expected) == 0);
    bb_clear(&b);
    bb_append_text(&b, "again");
    cr_assert_str_eq(b.data, "again");
    bb_free(&b);
}

Test(byte_buffer, reserve_gives_room_to_fill_in_place) {
    byte_buffer b;
    bb_init(&b);
    bb_append_text(&b, "ab");
    cr_assert(bb_reserve(&b, 300));
    cr_assert_geq(b.cap, b.len + 300 + 1);
    memcpy(b.data + b.len, "cd", 2);
    b.len += 2;
    b.data[b.len] = '\0';
    cr_assert_str_eq(b.data, "abcd");
    bb_free(&b);
}

Test(byte_buffer, consume_keeps_the_unsent_tail) {
    byte_buffer b;
    bb_init(&b);
    bb_append_text(&b, "hello world");
    bb_consume(&b, 6);
    cr_assert_eq(b.len, 5);
    cr_assert(memcmp(b.data, "world", 5) == 0);
    bb_consume(&b, 99);
    cr_assert_eq(b.len, 0);
    bb_free(&b);
}

Test(byte_buffer, a_borrowed_buffer_is_written_in_place_while_it_fits) {
    char storage[16];
    byte_buffer b;
    bb_borrow(&b, storage, sizeof storage);
    bb_append_text(&b, "[1,2,3]");
    cr_assert(b.data == storage && b.len == 7 && strcmp(storage, "[1,2,3]") == 0);
    bb_free(&b); /* the caller's storage is not freed (the sanitizer build would report it) */
}

Test(byte_buffer, a_borrowed_buffer_moves_out_whole_when_it_overflows) {
    char storage[16];
    byte_buffer b;
    bb_borrow(&b, storage, sizeof storage);
    bb_append_text(&b, "0123456789");
    bb_append_text(&b, "abcdefghij"); /* 20 bytes and a NUL: past the 16 borrowed */
    cr_assert(b.data != storage && !b.borrowed && !b.out_of_memory);
    cr_assert_eq(b.len, 20);
    cr_assert_str_eq(b.data, "0123456789abcdefghij");
    cr_assert(memcmp(storage, "0123456789", 10) == 0, "the caller's bytes stay as they were");
    bb_free(&b);
}

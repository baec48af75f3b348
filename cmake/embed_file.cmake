# Turns a file into a C source defining `const char <NAME>_text[]` (its bytes and a NUL) and
# `const size_t <NAME>_length` (used for openapi.yaml and the web pages of web/).
file(READ ${INPUT} content HEX)
string(LENGTH "${content}" hex_length)
math(EXPR byte_count "${hex_length} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${content}")
file(WRITE ${OUTPUT} "/* Generated from ${INPUT} by cmake/embed_file.cmake. */\n#include <stddef.h>\nconst char ${NAME}_text[] = {${bytes} 0x00};\nconst size_t ${NAME}_length = ${byte_count};\n")

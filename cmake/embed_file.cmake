# Turns a text file into a C source defining `embedded_<name>` and its length (used for openapi.yaml).
file(READ ${INPUT} content HEX)
string(LENGTH "${content}" hex_length)
math(EXPR byte_count "${hex_length} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${content}")
file(WRITE ${OUTPUT} "/* Generated from ${INPUT} by cmake/embed_file.cmake. */\n#include <stddef.h>\nconst char openapi_spec_text[] = {${bytes} 0x00};\nconst size_t openapi_spec_length = ${byte_count};\n")

/* How much of a unit test's big comparison against its reference this build runs: all of it in the
 * plain build (the unit stage), and the first 1/PUZZLED_SANITIZER_SAMPLE_DIVISOR of it in the
 * AddressSanitizer build (tests/CMakeLists.txt defines the divisor only there). The sanitizer build runs
 * the same code many times slower to find memory errors and undefined behaviour; the plain build has
 * already compared every answer. The sample is the same seeds' first puzzles, so it is the same in
 * every run, and a test's own checks on what its sample holds (every kind of answer occurred) still
 * apply to it. */
#ifndef PUZZLED_TESTS_SANITIZER_SAMPLE_H
#define PUZZLED_TESTS_SANITIZER_SAMPLE_H

#ifdef PUZZLED_SANITIZER_SAMPLE_DIVISOR
#define SANITIZER_SAMPLE(count) ((count) / PUZZLED_SANITIZER_SAMPLE_DIVISOR)
#else
#define SANITIZER_SAMPLE(count) (count)
#endif

#endif

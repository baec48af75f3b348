"""How the gzip level and the block size trade time for bytes on this service's own answers, to
choose server/compression.c's GZIP_LEVEL and server/stream.c's GZIP_PLAIN_BLOCK. Python's zlib module
is the same system libz the server links; each body is compressed as the server compresses a stream:
one gzip member, blocks of plain text each followed by a sync flush, and a finish.

Usage: python3 levels.py FILE... (bodies saved from the service, e.g. with curl). Prints, per file,
level and block: compressed bytes, ratio to the plain size, and CPU seconds (best of 3)."""
import sys
import time
import zlib

LEVELS = (1, 6)
BLOCKS = (16 * 1024, 64 * 1024, 256 * 1024)


def compress(data, level, block):
    encoder = zlib.compressobj(level, zlib.DEFLATED, 15 + 16, 8)
    size = 0
    for start in range(0, len(data), block):
        size += len(encoder.compress(data[start:start + block]))
        size += len(encoder.flush(zlib.Z_SYNC_FLUSH))
    return size + len(encoder.flush(zlib.Z_FINISH))


def best_time(data, level, block):
    best, size = None, 0
    for _ in range(3):
        began = time.process_time()
        size = compress(data, level, block)
        spent = time.process_time() - began
        best = spent if best is None else min(best, spent)
    return size, best


for path in sys.argv[1:]:
    data = open(path, 'rb').read()
    for level in LEVELS:
        for block in BLOCKS:
            size, seconds = best_time(data, level, block)
            print(f'{path}\tlevel {level}\tblock {block // 1024} KiB\t{size} bytes\t'
                  f'{size / len(data):.4f}\t{seconds:.3f} s\t{len(data) / seconds / 1e6:.0f} MB/s')

"""A fake engine for verify's lifecycle tests: it floods its standard error [EP-lifecycle].

Usage: python flood_stderr.py MEGABYTES.  It writes that many megabytes of numbered log
lines to stderr, then the line "flood: the last line", and exits with code 3 without
answering anything.
"""

import sys

megabytes = int(sys.argv[1])
line = "flood: noise " + "x" * 1010 + "\n"  # 1024 bytes
block = line * 64
for _ in range(megabytes * 16):
    sys.stderr.write(block)
sys.stderr.write("flood: the last line\n")
sys.stderr.flush()
sys.exit(3)

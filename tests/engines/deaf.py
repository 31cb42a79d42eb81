"""A fake engine for verify's lifecycle tests: it never reads its input [EP-lifecycle].

It shrinks the pipe of its standard input to one page where the system allows it (so
that verify's writes fill it after a few requests), then answers every request it never
read with the same line, ``{"ok": true}``: a valid answer to hello and to new_game, the
only requests the tests send it (EP-schemas).
"""

import fcntl
import sys

try:
    fcntl.fcntl(0, getattr(fcntl, "F_SETPIPE_SZ", 1031), 4096)
except OSError:
    pass
ANSWER = '{"ok": true}\n'
while True:
    sys.stdout.write(ANSWER * 64)
    sys.stdout.flush()

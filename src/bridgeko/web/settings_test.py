"""The test suite's settings (pytest's ``DJANGO_SETTINGS_MODULE``): the real settings of
:mod:`bridgeko.web.settings`, read from the environment as always, with one difference — unless
``BRIDGEKO_DATA_DIR`` is set, the data directory (SQLite file, secret key, static files) is a
fresh temporary directory, so no test writes into the repository.

The directory is made per process and removed when the process ends. It is put into the
environment only while the base settings are read: subprocesses a test starts (and pytest-xdist
workers) do not share it, each process that loads these settings gets its own.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

if os.environ.get("BRIDGEKO_DATA_DIR"):
    from bridgeko.web.settings import *  # noqa: F403
else:
    _TEMP_DATA_DIR = tempfile.mkdtemp(prefix="bridgeko-test-")
    atexit.register(shutil.rmtree, _TEMP_DATA_DIR, ignore_errors=True)
    os.environ["BRIDGEKO_DATA_DIR"] = _TEMP_DATA_DIR
    try:
        from bridgeko.web.settings import *  # noqa: F403
    finally:
        del os.environ["BRIDGEKO_DATA_DIR"]

# Background work (DD analysis, mail) runs in the committing thread: tests see its effects at once.
BRIDGEKO_BACKGROUND = "inline"
# Mail stays in django.core.mail.outbox (pytest-django sets it too; a command run in a test too).
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

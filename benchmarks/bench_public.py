"""The public site against static files (issue 12, items 6 and 2): nginx serving the same bytes
in the same run, and the TDs' entry while 1,000 open pages poll for news.

Run: ``.venv/bin/python benchmarks/bench_public.py [--duration 10] [--pollers 1000] [--saves 50]``

Needs ``nginx`` and ``wrk`` (Debian's packages): when they are missing and the script runs as
root, it installs them with ``apt-get`` (``--no-install`` forbids that; without them and without
root it prints why and ends with status 0, measuring nothing). Everything runs on 127.0.0.1 on
free ports, in a temporary directory removed at the end; the processes the script starts
(gunicorn, nginx, wrk) are stopped at the end, also on Ctrl+C.

The data: the real settings on a fresh SQLite database (``BRIDGEKO_DATA_DIR`` a temporary
directory; ``DATABASE_URL`` is ignored), migrated, with the demo (``bridgeko.demo``: the 1999
edition's 13-team bracket with byes, first round played, quarterfinals under way) and an edition
``bench`` of two teams whose final of 48 boards (R12.1, three segments of 16) is entered in both
rooms, and a TD of it with a password. The application runs as the README deploys it: gunicorn
(``--workers``, default 3, sync workers) on ``bridgeko.web.wsgi``. When the application has
``bridgeko export-site``, the public site of both editions is exported before it starts, and
the export's target directory (``BRIDGEKO_PUBLIC_DIR``) is set so that it re-exports after each
change.

Part 1, throughput (item 6). ``wrk -t2 -c64 --latency`` (``--duration`` seconds after a warm-up
of ``--warmup`` seconds) on each page — the bracket of ko-1999 and the 48-board match page of
``bench`` (the match's JSON when the application has no public match page) — served

* ``app``: by the application (gunicorn, no nginx);
* ``static``: by nginx, as plain files holding the bytes the application answered;
* ``deploy``: by nginx as documented in ``docs/deploying-public.md``: ``try_files`` on the
  exported site, the misses passed to the application.

Printed: requests/s, p50 and p99 per case, the ratios app / static and deploy / static, and
whether each meets the targets (ratio >= 0.5 and p99 < 50 ms).

Part 2, live pages (item 2). An open page asks for a small version file, ``live.json``, about
once a second. ``--pollers`` connections (wrk with ``live.lua``: each waits 0.5-1.5 s between
requests and revalidates with the last ``ETag``, like ``fetch(..., {cache: "no-cache"})``)
poll it, while the TD saves one board's result ``--saves`` times through the match page's own
request (``matches:save_board`` with ``Accept: application/json``, logged in with the login
form and its CSRF token); after each save a probe asks for ``live.json`` every 20 ms until its
version moved. Three runs:

* ``none``: no pollers (the probe asks both the application's and nginx's ``live.json``);
* ``nginx``: the pollers ask nginx for the exported ``live.json`` (a static file);
* ``app``: the pollers ask the application for its ``live.json`` (one query; 304 on the ETag).

Printed: the TD's save, p50 / p95 / p99 in ms and the ratio of each run's p95 to the run
without pollers; the pollers' requests/s and p99; the propagation delay (save answered ->
version visible in ``live.json``), p50 / p95 / max; and the worst delay before an open page
sees the change: propagation p95 plus the polling period (1 s) against the target of 2 s.

The times depend on the machine's load (printed); the script never fails on a time.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import http.cookiejar
import json
import math
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
REGULATIONS = REPO / "editions" / "bridge-open-ko-1999.toml"
NOW = datetime(1999, 6, 6, 9, 0, tzinfo=UTC)
BENCH_SLUG = "bench"
BRACKET_SLUG = "ko-1999"
TD_NAME, TD_PASSWORD = "bench-td", "bench-td-password-1999"
RATIO_TARGET = 0.5
P99_TARGET_MS = 50.0
VISIBLE_TARGET_S = 2.0
POLL_PERIOD_S = 1.0
APT_PACKAGES = ("nginx", "wrk")

LIVE_LUA = """\
-- An open page: asks for the version file about once a second (0.5-1.5 s apart, 1 s on
-- average), revalidating with the last ETag it saw (a 304 when nothing changed).
local etag = nil
math.randomseed(os.time() + math.floor(os.clock() * 1000000))
request = function()
  if etag ~= nil then
    return wrk.format("GET", nil, {["If-None-Match"] = etag})
  end
  return wrk.format("GET")
end
response = function(status, headers, body)
  local tag = headers["ETag"] or headers["Etag"] or headers["etag"]
  if tag ~= nil then etag = tag end
end
delay = function()
  return math.random(500, 1500)
end
"""


# ------------------------------------------------------------------------- pure helpers


_UNITS_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0, "h": 3_600_000.0}


def duration_ms(text: str) -> float:
    """A wrk duration (``"812.00us"``, ``"1.53ms"``, ``"2.01s"``, ``"1.00m"``) in ms.

    >>> duration_ms("812.00us"), duration_ms("1.53ms"), duration_ms("2.01s")
    (0.812, 1.53, 2010.0)
    >>> duration_ms("12 ms")
    Traceback (most recent call last):
    ...
    ValueError: not a wrk duration: '12 ms'
    """
    m = re.fullmatch(r"([0-9.]+)(us|ms|s|m|h)", text.strip())
    if m is None:
        raise ValueError(f"not a wrk duration: {text!r}")
    return round(float(m.group(1)) * _UNITS_MS[m.group(2)], 6)


_SCALE = {"": 1.0, "k": 1e3, "M": 1e6, "G": 1e9}


@dataclass(frozen=True)
class WrkResult:
    """What one wrk run printed: requests/s, the latency percentiles it printed (``--latency``:
    50, 75, 90 and 99, in ms), the requests, and the errors (sockets and non-2xx/3xx)."""

    requests_per_s: float
    percentiles: dict[int, float]
    requests: int
    socket_errors: int
    bad_status: int

    @property
    def p50(self) -> float:
        return self.percentiles.get(50, math.nan)

    @property
    def p99(self) -> float:
        return self.percentiles.get(99, math.nan)


def parse_wrk(text: str) -> WrkResult:
    """Reads the summary wrk prints (with ``--latency``); a run without a summary line is an
    error (``ValueError``)."""
    rps = re.search(r"^Requests/sec:\s+([0-9.]+)", text, re.M)
    total = re.search(r"^\s*(\d+) requests in ", text, re.M)
    if rps is None or total is None:
        raise ValueError("no wrk summary in:\n" + text)
    percentiles = {
        int(p): duration_ms(v)
        for p, v in re.findall(r"^\s+(\d+)%\s+([0-9.]+(?:us|ms|s|m|h))\s*$", text, re.M)
    }
    errors = re.search(
        r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text
    )
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    return WrkResult(
        requests_per_s=float(rps.group(1)),
        percentiles=percentiles,
        requests=int(total.group(1)),
        socket_errors=sum(int(g) for g in errors.groups()) if errors else 0,
        bad_status=int(bad.group(1)) if bad else 0,
    )


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q`` percentile (0 < q <= 100) of ``values`` (NaN when empty).

    >>> percentile([5, 1, 4, 2, 3], 50), percentile([5, 1, 4, 2, 3], 95), percentile([], 50)
    (3, 5, nan)
    """
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def version_token(body: bytes, etag: str | None) -> str:
    """What tells one version of a polled resource from another: the ``version`` of a JSON
    object that has one (``live.json``), else the ``ETag``, else a hash of the body.

    >>> version_token(b'{"version": "12.0", "updated": "x"}', '"a"')
    '12.0'
    >>> version_token(b'{"match": 1}', '"tag"'), len(version_token(b"<html>", None))
    ('"tag"', 64)
    """
    with contextlib.suppress(ValueError, UnicodeDecodeError):
        data = json.loads(body)
        if isinstance(data, dict) and "version" in data:
            return str(data["version"])
    if etag:
        return etag
    return hashlib.sha256(body).hexdigest()


def nginx_server_blocks(*, port: int, site: Path, app_port: int) -> str:
    """The documented deployment (``docs/deploying-public.md``) as the benchmark runs it: the
    exported site served as files, the misses (the TDs' pages, the forms, a page not yet
    exported) passed to the application."""
    return f"""\
    server {{
        listen 127.0.0.1:{port};
        root {site};
        location / {{
            try_files $uri ${{uri}}index.html @app;
            add_header Cache-Control "no-cache";
        }}
        location @app {{
            proxy_pass http://127.0.0.1:{app_port};
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header X-Real-IP $remote_addr;
        }}
    }}
"""


def nginx_conf(
    *,
    prefix: Path,
    static_port: int,
    static_root: Path,
    deploy_port: int,
    site: Path,
    app_port: int,
) -> str:
    """A whole nginx configuration: ``static_port`` serves ``static_root`` as plain files (the
    reference), ``deploy_port`` the deployment (:func:`nginx_server_blocks`)."""
    user = "user root root;\n" if os.geteuid() == 0 else ""
    return f"""\
{user}worker_processes auto;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
daemon off;
events {{ worker_connections 8192; }}
http {{
    types {{
        text/html html;
        application/json json;
        text/css css;
        application/javascript js;
        image/svg+xml svg;
        text/calendar ics;
    }}
    default_type application/octet-stream;
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 100000;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    server {{
        listen 127.0.0.1:{static_port};
        root {static_root};
        location / {{ try_files $uri ${{uri}}index.html =404; }}
    }}
{nginx_server_blocks(port=deploy_port, site=site, app_port=app_port)}}}
"""


def file_of(root: Path, url_path: str) -> Path:
    """Where a static server finds ``url_path`` under ``root`` (a directory's ``index.html``).

    >>> file_of(Path("/s"), "/cs/e/x/public/draw/"), file_of(Path("/s"), "/e/x/live.json")
    (PosixPath('/s/cs/e/x/public/draw/index.html'), PosixPath('/s/e/x/live.json'))
    """
    relative = url_path.lstrip("/")
    if not relative or relative.endswith("/"):
        relative += "index.html"
    return root / relative


# ---------------------------------------------------------------------------- processes


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Processes:
    """The processes the script started (each in its own session): stopped at the end."""

    started: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def start(self, argv: list[str], **kwargs: Any) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(argv, start_new_session=True, **kwargs)
        self.started.append(proc)
        return proc

    def stop(self, proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, sig)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()

    def stop_all(self) -> None:
        for proc in reversed(self.started):
            self.stop(proc)


def tool(name: str) -> str | None:
    return shutil.which(name) or next(
        (str(p) for p in (Path("/usr/sbin") / name, Path("/sbin") / name) if p.exists()), None
    )


def ensure_tools(install: bool) -> dict[str, str] | None:
    """The paths of nginx and wrk, installed from Debian's packages when missing (as root)."""
    missing = [name for name in APT_PACKAGES if tool(name) is None]
    if missing and install and os.geteuid() == 0 and shutil.which("apt-get"):
        print(f"installing {' '.join(missing)} with apt-get ...", flush=True)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(
            ["apt-get", "install", "-y", "--no-install-recommends", *missing],
            env=env,
            stdout=subprocess.DEVNULL,
            check=False,
        )
    found = {name: tool(name) for name in APT_PACKAGES}
    if any(path is None for path in found.values()):
        return None
    return {name: str(path) for name, path in found.items()}


def wait_http(url: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with OPENER.open(url, timeout=5) as response:
                response.read()
                return
        except urllib.error.HTTPError:
            return  # it answers
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))
"""Plain HTTP on 127.0.0.1, whatever proxy the environment names."""


def get(url: str, timeout: float = 60) -> tuple[int, bytes, dict[str, str]]:
    request = urllib.request.Request(url)
    try:
        with OPENER.open(request, timeout=max(timeout, 0.1)) as response:
            return response.status, response.read(), dict(response.headers.items())
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), dict(exc.headers.items())


def drain(url: str) -> None:
    """Waits until the server has answered the requests wrk left unanswered when it stopped
    (a saturated application works through them before the next run): one more request, which
    queues behind them."""
    get(url)


def wrk(
    binary: str,
    url: str,
    *,
    seconds: float,
    connections: int,
    threads: int,
    script: Path | None = None,
) -> WrkResult:
    argv = [binary, f"-t{threads}", f"-c{connections}", f"-d{seconds:g}s", "--latency"]
    argv += ["--timeout", "10s"]
    if script is not None:
        argv += ["-s", str(script)]
    out = subprocess.run([*argv, url], capture_output=True, text=True, check=True).stdout
    return parse_wrk(out)


# ------------------------------------------------------------------------------- the data


def setup_django(data_dir: Path) -> None:
    """The real settings on a fresh SQLite database in ``data_dir``, migrated."""
    os.environ.pop("DATABASE_URL", None)
    os.environ["BRIDGEKO_DATA_DIR"] = str(data_dir)
    os.environ["DJANGO_SETTINGS_MODULE"] = "bridgeko.web.settings"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def build_bench_edition() -> None:
    """Edition ``bench``: two teams of six, a final of 48 boards entered in both rooms (with
    the first segment's line-ups), and its TD with a password."""
    from django.contrib.auth import get_user_model

    from bridgeko.accounts.models import Role, RoleAssignment
    from bridgeko.editions.services import create_edition

    users = get_user_model().objects
    organiser = users.create_user("bench-organiser")
    edition = create_edition(slug=BENCH_SLUG, toml_text=REGULATIONS.read_text(), user=organiser)
    import worlds  # benchmarks/worlds.py, beside this script

    worlds.played_final(edition, organiser, round_=1, now=NOW)
    td = users.create_user(TD_NAME, password=TD_PASSWORD)
    RoleAssignment.objects.create(user=td, edition=edition, role=Role.TD)


def build_world() -> None:
    from django.test.utils import override_settings

    from bridgeko.demo import load_demo

    with override_settings(BRIDGEKO_BACKGROUND="inline"):
        load_demo()
        build_bench_edition()


def _reverse(names: Sequence[str], **kwargs: Any) -> str | None:
    from django.urls import NoReverseMatch, reverse

    for name in names:
        with contextlib.suppress(NoReverseMatch):
            return reverse(name, kwargs=kwargs)
    return None


@dataclass(frozen=True)
class Urls:
    """The paths the benchmark uses, found with the application's own URLconf (in Czech: the
    public pages may carry the language in their path)."""

    bracket: str
    match: str
    match_is_page: bool
    live: str
    live_fallback: bool
    save: str
    login: str


def discover_urls(app: str) -> Urls:
    from django.urls import reverse
    from django.utils import translation

    translation.activate("cs")
    bracket = _reverse(["public:draw", "public:bracket"], edition=BRACKET_SLUG)
    assert bracket is not None, "no public bracket page"
    match = _reverse(["public:match", "public:match_detail"], edition=BENCH_SLUG, code="F")
    api_match = _reverse(
        ["api:api_match", "api:match", "public:api_match"], edition=BENCH_SLUG, code="F"
    )
    assert api_match is not None, "no JSON of a match"
    match_is_page = match is not None
    live = _reverse(["site:live", "public:live"], edition=BENCH_SLUG)
    live_fallback = live is None or get(app + live)[0] != 200
    if live is None or live_fallback:  # before live.json: the match's JSON, with its ETag
        live = api_match
    board = {"edition": BENCH_SLUG, "code": "F", "board": 1, "room": "open"}
    save = reverse("matches:save_board", kwargs=board)
    login = reverse("login")
    return Urls(bracket, match or api_match, match_is_page, live, live_fallback, save, login)


# ------------------------------------------------------------------------------- the TD


class TdClient:
    """The TD in a browser: logs in with the login form, saves a board as the match page's
    script does (``Accept: application/json``, the CSRF token in ``X-CSRFToken``)."""

    def __init__(self, base: str, version: int) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.ProxyHandler({}), urllib.request.HTTPCookieProcessor(self.jar)
        )
        self.texts = ("4S N +1", "4S N =")
        self.k = 0
        self.version = version

    def _cookie(self, name: str) -> str:
        return next((c.value or "" for c in self.jar if c.name == name), "")

    def login(self, path: str, username: str, password: str) -> None:
        url = self.base + path
        with self.opener.open(url, timeout=30) as response:
            html = response.read().decode()
        m = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
        assert m is not None, "no CSRF token on the login page"
        data = urllib.parse.urlencode(
            {"username": username, "password": password, "csrfmiddlewaretoken": m.group(1)}
        ).encode()
        request = urllib.request.Request(url, data=data, headers={"Referer": url})
        with self.opener.open(request, timeout=30) as response:
            response.read()
        assert self._cookie("sessionid"), "the TD could not log in"

    def save(self, path: str, timeout: float) -> float | None:
        """One save (the text alternates); its wall time in ms, or ``None`` when no answer
        came within ``timeout`` seconds or the save met a conflict (a save given up earlier
        was done after all: the next one starts from the version the answer names)."""
        self.k += 1
        data = urllib.parse.urlencode(
            {"text": self.texts[self.k % 2], "version": self.version}
        ).encode()
        headers = {
            "Accept": "application/json",
            "X-CSRFToken": self._cookie("csrftoken"),
            "Referer": self.base + path,
        }
        request = urllib.request.Request(self.base + path, data=data, headers=headers)
        start = time.perf_counter()
        try:
            with self.opener.open(request, timeout=timeout) as response:
                answer = json.loads(response.read())
        except urllib.error.HTTPError as exc:
            answer = json.loads(exc.read() or b"{}")
            if exc.code == 409 and answer.get("conflict"):
                self.version = int(answer["version"])
                return None
            raise AssertionError(f"save refused ({exc.code}): {answer}") from None
        except OSError:  # no answer in time
            return None
        elapsed = (time.perf_counter() - start) * 1000
        assert answer.get("ok"), answer
        self.version = int(answer["version"])
        return elapsed


def probe_token(url: str, timeout: float) -> str | None:
    """The version ``url`` shows now; ``None`` when it does not answer in time."""
    try:
        status, body, headers = get(url, timeout=timeout)
    except OSError:
        return None
    assert status == 200, (url, status)
    return version_token(body, headers.get("ETag"))


@dataclass
class LiveRun:
    label: str
    saves_ms: list[float]
    propagation_s: dict[str, list[float]]
    pollers: WrkResult | None
    failed_saves: int = 0
    unseen: dict[str, int] = field(default_factory=dict)


def live_run(
    label: str,
    *,
    td: TdClient,
    save_path: str,
    probes: dict[str, str],
    saves: int,
    pollers: tuple[str, int] | None,
    budget: float,
    wrk_binary: str,
    lua: Path,
    procs: Processes,
) -> LiveRun:
    """``saves`` saves by the TD (fewer when ``budget`` seconds run out), each followed by
    probing ``probes`` every 20 ms until the version moved, while ``pollers`` (url,
    connections) poll. A save without an answer in 30 s, or a version not seen moving in 30 s
    or not read in 10 s before the save (a saturated server), is counted, not timed."""
    poller_proc = None
    if pollers is not None:
        url, connections = pollers
        argv = [wrk_binary, "-t1", f"-c{connections}", "-d3600s", "--latency", "--timeout", "10s"]
        poller_proc = procs.start(
            [*argv, "-s", str(lua), url], stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        time.sleep(5)  # every poller connected and in its rhythm
    run = LiveRun(label, [], {name: [] for name in probes}, None)
    run.unseen = dict.fromkeys(probes, 0)
    rng = random.Random(12)
    deadline = time.perf_counter() + budget
    while len(run.saves_ms) < saves and time.perf_counter() < deadline:
        before = {name: probe_token(url, 10) for name, url in probes.items()}
        elapsed = td.save(save_path, timeout=30)
        if elapsed is None:
            run.failed_saves += 1
            continue
        run.saves_ms.append(elapsed)
        saved = time.perf_counter()
        waiting = {name: url for name, url in probes.items() if before[name] is not None}
        for name in probes.keys() - waiting.keys():
            run.unseen[name] += 1  # its version before the save was not to be had
        while waiting and time.perf_counter() - saved < 30:
            for name, url in list(waiting.items()):
                token = probe_token(url, 30 - (time.perf_counter() - saved))
                if token is not None and token != before[name]:
                    run.propagation_s[name].append(time.perf_counter() - saved)
                    del waiting[name]
            time.sleep(0.02)
        for name in waiting:
            run.unseen[name] += 1
        time.sleep(rng.uniform(0.2, 0.5))  # the TD types the next result
    if poller_proc is not None:
        os.killpg(poller_proc.pid, signal.SIGINT)  # wrk prints its summary on SIGINT
        out, _ = poller_proc.communicate(timeout=30)
        run.pollers = parse_wrk(out.decode())
    return run


# ------------------------------------------------------------------------------- the run


@contextlib.contextmanager
def version_writer(target: Path, period: float = 0.05) -> Iterator[None]:
    """Before ``bridgeko export-site`` re-exported on its own: a thread rewriting the bench
    edition's ``live.json`` (the application's own bytes, :func:`bridgeko.public.live.
    live_document`) into ``target`` whenever its version moves."""
    from django.db import connection

    from bridgeko.editions.models import Edition
    from bridgeko.public.freshness import edition_version
    from bridgeko.public.live import live_document

    stop = threading.Event()

    def run() -> None:
        edition = Edition.objects.get(slug=BENCH_SLUG)
        last = None
        while not stop.is_set():
            version = edition_version(edition)
            if version != last:
                target.parent.mkdir(parents=True, exist_ok=True)
                temporary = target.with_suffix(".tmp")
                temporary.write_bytes(live_document(version))
                temporary.replace(target)
                last = version
            stop.wait(period)
        connection.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    while not target.exists():
        time.sleep(0.01)
    try:
        yield
    finally:
        stop.set()
        thread.join()


def export_site(env: dict[str, str], site: Path) -> bool:
    """``bridgeko export-site`` of both editions into ``site``; False when it does not exist."""
    argv = [sys.executable, "-m", "bridgeko.cli"]
    helped = subprocess.run(
        [*argv, "export-site", "--help"], env=env, capture_output=True, check=False
    )
    if helped.returncode != 0:
        return False
    for slug in (BRACKET_SLUG, BENCH_SLUG):
        subprocess.run(
            [*argv, "export-site", str(site), "--edition", slug],
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,  # a line per page skipped (404 in this edition)
        )
    return True


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (5 min {five:.1f}) on {os.cpu_count()} cores"


def print_throughput(rows: dict[tuple[str, str], WrkResult]) -> None:
    print(f"{'page':<9} {'served by':<9} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}")
    for (page, server), r in rows.items():
        errors = r.socket_errors + r.bad_status
        print(
            f"{page:<9} {server:<9} {r.requests_per_s:9.0f} {r.p50:8.2f} {r.p99:8.2f} {errors:7d}"
        )
    print()
    print(f"{'page':<9} {'server':<9} {'/ static':>9} {'ratio>=0.5':>11} {'p99<50ms':>9}")
    for page in ("bracket", "match"):
        static = rows[(page, "static")]
        for server in ("app", "deploy"):
            r = rows[(page, server)]
            ratio = r.requests_per_s / static.requests_per_s
            print(
                f"{page:<9} {server:<9} {ratio:9.3f} {_yes(ratio >= RATIO_TARGET):>11} "
                f"{_yes(r.p99 < P99_TARGET_MS):>9}"
            )


def _yes(ok: bool) -> str:
    return "yes" if ok else "NO"


def print_live(runs: list[LiveRun]) -> None:
    base = percentile(runs[0].saves_ms, 95)
    print(
        f"{'pollers on':<11} {'saves':>6} {'lost':>5} {'save p50':>9} {'p95':>7} {'p99':>7} "
        f"{'p95/none':>9} {'polls/s':>8} {'poll p99':>9} {'poll errors':>11}"
    )
    for run in runs:
        s, p = run.saves_ms, run.pollers
        polls = f"{'-':>8} {'-':>9} {'-':>11}"
        if p is not None:
            polls = f"{p.requests_per_s:8.0f} {p.p99:9.1f} {p.socket_errors + p.bad_status:11d}"
        print(
            f"{run.label:<11} {len(s):6d} {run.failed_saves:5d} {percentile(s, 50):9.1f} "
            f"{percentile(s, 95):7.1f} {percentile(s, 99):7.1f} {percentile(s, 95) / base:9.2f} "
            + polls
        )
    print("(ms; lost: no answer within 30 s; poll errors: timeouts of 10 s, refused connections)")
    print()
    print(
        f"{'pollers on':<11} {'live.json of':<13} {'prop. p50 s':>11} {'p95 s':>7} "
        f"{'max s':>7} {'unseen':>6} {'+1 s poll':>9} {'<2 s':>5}"
    )
    for run in runs:
        for name, values in run.propagation_s.items():
            p95 = percentile(values, 95)
            visible = p95 + POLL_PERIOD_S
            ok = _yes(visible < VISIBLE_TARGET_S and not run.unseen[name])
            print(
                f"{run.label:<11} {name:<13} {percentile(values, 50):11.3f} {p95:7.3f} "
                f"{max(values, default=math.nan):7.3f} {run.unseen[name]:6d} {visible:9.2f} "
                f"{ok:>5}"
            )
    print("(propagation: from the save's answer to the new version in live.json; unseen: not")
    print(" read within 10 s before the save or 30 s after it; +1 s poll: the longest an open")
    print(" page then waits for its next poll)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=float, default=10, help="seconds of each wrk run")
    parser.add_argument("--warmup", type=float, default=3, help="seconds of warm-up before it")
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--workers", type=int, default=3, help="gunicorn's workers")
    parser.add_argument("--pollers", type=int, default=1000, help="open pages polling live.json")
    parser.add_argument("--saves", type=int, default=50, help="TD's saves per live run")
    parser.add_argument(
        "--live-seconds", type=float, default=180, help="at most this long per live run"
    )
    parser.add_argument("--no-install", action="store_true", help="never run apt-get")
    parser.add_argument("--skip-live", action="store_true", help="part 1 only")
    parser.add_argument("--skip-throughput", action="store_true", help="part 2 only")
    args = parser.parse_args()
    tools = ensure_tools(install=not args.no_install)
    if tools is None:
        print("bench_public: needs nginx and wrk (apt-get install nginx wrk, as root); skipped")
        return 0
    procs = Processes()
    with contextlib.ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-public-")))
        stack.callback(procs.stop_all)  # before the directory goes
        tmp.chmod(0o755)  # nginx's workers read the files
        (tmp / "nginx").mkdir()
        data, static_root, site = tmp / "data", tmp / "static", tmp / "site"
        print(f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC; {load()}", flush=True)
        started = time.perf_counter()
        setup_django(data)
        build_world()
        from django.db import connections

        from bridgeko.matches.models import BoardResult

        first = BoardResult.objects.get(match__edition__slug=BENCH_SLUG, board=1, room="open")
        connections.close_all()
        print(f"data built in {time.perf_counter() - started:.0f} s", flush=True)
        app_port, static_port, deploy_port = free_port(), free_port(), free_port()
        app = f"http://127.0.0.1:{app_port}"
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(REPO / "src"), os.environ.get("PYTHONPATH", "")]),
            "BRIDGEKO_DATA_DIR": str(data),
            "BRIDGEKO_PUBLIC_DIR": str(site),
            "BRIDGEKO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        }
        exported = export_site(env, site)
        gunicorn = [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{app_port}"]
        gunicorn += ["--workers", str(args.workers), "--error-logfile", str(tmp / "gunicorn.log")]
        log = stack.enter_context((tmp / "gunicorn.out").open("wb"))  # the exports' lines
        procs.start([*gunicorn, "bridgeko.web.wsgi"], env=env, cwd=tmp, stdout=log, stderr=log)
        wait_http(app + "/")
        urls = discover_urls(app)
        pages = {"bracket": urls.bracket, "match": urls.match}
        for path in pages.values():
            status, body, _ = get(app + path)
            assert status == 200, (path, status)
            copies = [static_root] if exported else [static_root, site]
            for root in copies:  # no export: the deployment serves the app's bytes too
                target = file_of(root, path)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(body)
        conf = tmp / "nginx" / "nginx.conf"
        conf.write_text(
            nginx_conf(
                prefix=tmp / "nginx",
                static_port=static_port,
                static_root=static_root,
                deploy_port=deploy_port,
                site=site,
                app_port=app_port,
            )
        )
        procs.start(
            [tools["nginx"], "-p", str(tmp / "nginx"), "-c", str(conf)],
            stderr=subprocess.DEVNULL,
        )
        bases = {
            "app": app,
            "static": f"http://127.0.0.1:{static_port}",
            "deploy": f"http://127.0.0.1:{deploy_port}",
        }
        for base in bases.values():
            wait_http(base + "/")
        print(f"gunicorn: {args.workers} sync workers; nginx: {tools['nginx']}")
        print(
            "export: "
            + ("bridgeko export-site" if exported else "none (the app's bytes copied)")
            + f"; match page: {urls.match}"
            + ("" if urls.match_is_page else " (JSON: no public match page yet)")
        )
        for page, path in pages.items():
            sizes = {
                name: len(get(base + path)[1]) for name, base in bases.items() if name != "app"
            }
            print(
                f"{page}: {path}, {len(get(app + path)[1])} bytes from the app, "
                f"{sizes['deploy']} from the deployment"
            )
        print()
        print(
            f"Part 1: wrk -t{args.threads} -c{args.connections} -d{args.duration:g}s --latency "
            f"(after {args.warmup:g} s of warm-up); {load()}",
            flush=True,
        )
        rows: dict[tuple[str, str], WrkResult] = {}
        for page, path in pages.items():
            for server in ("static", "app", "deploy"):
                if args.skip_throughput:
                    continue
                url = bases[server] + path
                common = {"connections": args.connections, "threads": args.threads}
                wrk(tools["wrk"], url, seconds=args.warmup, **common)
                drain(url)
                rows[(page, server)] = wrk(tools["wrk"], url, seconds=args.duration, **common)
                drain(url)
        if rows:
            print_throughput(rows)
        if args.skip_live:
            return 0
        print()
        lua = tmp / "live.lua"
        lua.write_text(LIVE_LUA)
        print(
            f"Part 2: the TD saves a board {args.saves} times while {args.pollers} open pages "
            f"poll {urls.live}"
            + (" (no live.json yet: the match's JSON)" if urls.live_fallback else ""),
            flush=True,
        )
        td = TdClient(app, version=first.version)
        td.login(urls.login, TD_NAME, TD_PASSWORD)
        static_live = file_of(site, urls.live)
        if not static_live.exists() and not urls.live_fallback:
            print(
                f"  (nothing exported at {urls.live}: the benchmark writes it when the version "
                "moves, checking every 50 ms)"
            )
            stack.enter_context(version_writer(static_live))
        probes = {"app": app + urls.live, "nginx": bases["deploy"] + urls.live}
        runs = []
        scenarios: list[tuple[str, str | None]] = [("none", None), ("nginx", "nginx")]
        scenarios.append(("app", "app"))
        if urls.live_fallback:  # nothing static to poll: nginx would pass it to the app
            del probes["nginx"]
            scenarios.remove(("nginx", "nginx"))
        for label, pollers in scenarios:
            chosen = probes if pollers is None else {pollers: probes[pollers]}
            poll = None if pollers is None else (probes[pollers], args.pollers)
            runs.append(
                live_run(
                    label,
                    td=td,
                    save_path=urls.save,
                    probes=chosen,
                    saves=args.saves,
                    pollers=poll,
                    budget=args.live_seconds,
                    wrk_binary=tools["wrk"],
                    lua=lua,
                    procs=procs,
                )
            )
            print(f"  {label}: done; {load()}", flush=True)
        print_live(runs)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO / "src"))
    sys.exit(main())

"""The pure helpers of ``benchmarks/bench_public.py`` (issue 12, items 2 and 6): reading wrk's
summary, the percentiles, the version token of a polled file, the nginx configuration of the
documented deployment. The benchmark itself is not a test: it measures (``make bench``)."""

from __future__ import annotations

import doctest
import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "benchmarks" / "bench_public.py"

WRK_OUTPUT = """\
Running 10s test @ http://127.0.0.1:41234/cs/e/ko-1999/public/draw/
  2 threads and 64 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.10s   608.17ms   1.98s    60.00%
    Req/Sec    12.52      9.76    37.00     76.00%
  Latency Distribution
     50%  812.00us
     75%    1.67ms
     90%   19.60ms
     99%    1.98s \n\
  38102 requests in 10.10s, 443.64MB read
  Socket errors: connect 0, read 2, write 0, timeout 23
  Non-2xx or 3xx responses: 5
Requests/sec:   3772.48
Transfer/sec:     43.92MB
"""


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_public", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_public"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_bench_public_reads_wrk_summary(bench: ModuleType) -> None:
    result = bench.parse_wrk(WRK_OUTPUT)
    assert result.requests_per_s == pytest.approx(3772.48)
    assert result.requests == 38102
    assert result.percentiles == {50: 0.812, 75: 1.67, 90: 19.6, 99: 1980.0}
    assert (result.p50, result.p99) == (0.812, 1980.0)
    assert (result.socket_errors, result.bad_status) == (25, 5)


def test_bench_public_wrk_without_summary_is_an_error(bench: ModuleType) -> None:
    with pytest.raises(ValueError, match="no wrk summary"):
        bench.parse_wrk("unable to connect to 127.0.0.1:1 Connection refused\n")


def test_bench_public_doctests(bench: ModuleType) -> None:
    failed, attempted = doctest.testmod(bench, optionflags=doctest.ELLIPSIS)
    assert attempted >= 6 and failed == 0, (failed, attempted)


def test_bench_public_deployment_passes_misses_to_the_app(bench: ModuleType) -> None:
    block = bench.nginx_server_blocks(port=8080, site=Path("/srv/site"), app_port=8001)
    assert "root /srv/site;" in block
    assert "try_files $uri ${uri}index.html @app;" in block
    assert "proxy_pass http://127.0.0.1:8001;" in block
    documented = (REPO / "docs" / "deploying-public.md").read_text(encoding="utf-8")
    assert "try_files $uri ${uri}index.html @app;" in documented


@pytest.mark.skipif(
    shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists(),
    reason="nginx is not installed",
)
def test_bench_public_nginx_accepts_the_configuration(bench: ModuleType, tmp_path: Path) -> None:
    for name in ("static", "site"):
        (tmp_path / name).mkdir()
    conf = tmp_path / "nginx.conf"
    conf.write_text(
        bench.nginx_conf(
            prefix=tmp_path,
            static_port=18081,
            static_root=tmp_path / "static",
            deploy_port=18082,
            site=tmp_path / "site",
            app_port=18083,
        )
    )
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    checked = subprocess.run(
        [nginx, "-t", "-p", str(tmp_path), "-c", str(conf)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr

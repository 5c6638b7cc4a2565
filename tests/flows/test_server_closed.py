"""`omoide server` answers its owner only: a real server, the issue's curl checks, and a real browser
whose pages (another loopback port, a name rebound to 127.0.0.1) try to read the day digests."""

from __future__ import annotations

import json
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

from omoide.cli.runtime import api_url, running_server
from omoide.core.server_auth import auth_string
from tests.fakes import CLI, run_cli
from tests.prefect_server import background, clean_env, free_port, wait_healthy

FILTER = "/api/artifacts/filter"
EVIL = "https://evil.example"

# The page another site would serve: it reads its own file (so the script is known to run), then
# tries the memory's server as any page's script can, and writes what it got into the page.
PAGE = """<!doctype html><html><body><pre id="out">running</pre><script>
const out = document.getElementById("out");
async function attempt(label, init) {
  try {
    const r = await fetch("http://127.0.0.1:%(port)d%(path)s", init);
    return label + ":read:" + r.status + ":" + (await r.text()).length;
  } catch (e) {
    return label + ":failed";
  }
}
(async () => {
  const own = await (await fetch("/own.json")).json();
  const lines = ["own:" + own.ok];
  const body = JSON.stringify({});
  lines.push(await attempt("plain", {method: "POST", body: body}));
  lines.push(await attempt("json", {method: "POST", body: body,
    headers: {"content-type": "application/json"}}));
  lines.push(await attempt("guessed", {method: "POST", body: body,
    headers: {"content-type": "application/json", "authorization": "Basic b21vaWRlOmd1ZXNz"}}));
  out.textContent = lines.join("\\n");
})();
</script></body></html>"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, int]]:
    """-> a home and the port of `omoide server` (with its UI) running on it."""
    tmp = tmp_path_factory.mktemp("closed")
    home = tmp / "home"
    port = free_port()
    env = clean_env(OMOIDE_HOME=str(home))
    log = tmp / "server.log"
    with background([*CLI, "server", "--port", str(port), "--no-recall"], env, log) as process:
        wait_healthy(api_url(port), process, log)
        for _ in range(40):  # the file is written just after the first healthy answer
            if running_server(home):
                break
            time.sleep(0.25)
        yield home, port


def _client(port: int, **kwargs: object) -> httpx.Client:
    """Port -> an HTTP client of that loopback server that never consults a proxy."""
    return httpx.Client(base_url=f"http://127.0.0.1:{port}", trust_env=False, timeout=30, **kwargs)


def test_the_api_answers_no_other_origin_no_stranger_and_no_other_name(
    server: tuple[Path, int],
) -> None:
    home, port = server
    with _client(port) as client:
        preflight = client.options(
            FILTER, headers={"Origin": EVIL, "Access-Control-Request-Method": "POST"}
        )
        assert "access-control-allow-origin" not in preflight.headers
        assert client.post(FILTER, json={}).status_code == 401
        rebound = client.post(FILTER, json={}, headers={"Host": "evil.example"})
        assert 400 <= rebound.status_code < 500
        assert client.get("/api/health").status_code == 200  # the service's probe needs no login
    user, _, password = auth_string(home).partition(":")
    with _client(port, auth=(user, password)) as owner:
        assert owner.post(FILTER, json={}).status_code == 200
        # Even with the login, a page of another site gets nothing.
        assert owner.post(FILTER, json={}, headers={"Origin": EVIL}).status_code == 403
        # The UI is served and asks for the login (Prefect's BASIC mode); its own origin is allowed.
        assert owner.get("/").status_code == 200
        assert owner.get("/ui-settings").json()["auth"] == "BASIC"
        own = owner.options(
            FILTER,
            headers={
                "Origin": f"http://localhost:{port}",
                "Access-Control-Request-Method": "POST",
            },
        )
        assert own.headers["access-control-allow-origin"] == f"http://localhost:{port}"


def test_status_reads_the_runs_from_the_closed_server(server: tuple[Path, int]) -> None:
    home, port = server
    r = run_cli("status", "--json", home=home)
    assert r.returncode == 0, r.stderr[-2000:]
    report = json.loads(r.stdout)
    assert report["prefect_api"] == api_url(port) and "prefect_error" not in report


class _Site(BaseHTTPRequestHandler):
    """Another site on a loopback port: the attacking page and a file of its own."""

    page = ""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        body = (self.page if self.path == "/" else '{"ok": "yes"}').encode()
        self.send_response(200)
        self.send_header("content-type", "text/html" if self.path == "/" else "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


def _chromium() -> str:
    """-> the path of Debian's Chromium, or the test skipped saying how to get it."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.skip("headless Chromium is not installed here (Debian: apt-get install chromium)")
    return found


def _dom(chromium: str, url: str, profile: Path, *flags: str) -> str:
    """A URL -> the page's DOM once its scripts ran, as headless Chromium renders it."""
    done = subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={profile}",
            "--virtual-time-budget=10000",
            *flags,
            "--dump-dom",
            url,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_a_web_page_in_a_real_browser_cannot_read_the_memory(
    server: tuple[Path, int], tmp_path: Path
) -> None:
    chromium = _chromium()
    home, port = server
    _Site.page = PAGE % {"port": port, "path": FILTER}
    site = ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    try:
        dom = _dom(chromium, f"http://127.0.0.1:{site.server_port}/", tmp_path / "a")
    finally:
        site.shutdown()
    lines = dom.split('<pre id="out">', 1)[1].split("</pre>", 1)[0].split("\n")
    assert lines[0] == "own:yes", dom[-2000:]  # the page's script ran and could fetch
    assert lines[1:] == ["plain:failed", "json:failed", "guessed:failed"], lines
    # A page whose name is rebound to 127.0.0.1 is no longer cross-origin: the Host check refuses it.
    rebound = _dom(
        chromium,
        f"http://evil.example:{port}/api/health",
        tmp_path / "b",
        "--host-resolver-rules=MAP evil.example 127.0.0.1",
    )
    assert "refused: unknown host" in rebound and "true" not in rebound.replace("refused", "")

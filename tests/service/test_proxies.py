"""docs/deploy.md's reverse-proxy snippets, run as the page gives them: real nginx and
Caddy in front of a real `serve`, with only the example's names, ports, certificate and
log paths replaced by the test's own (each replaced text must stand in the page, so the
page and this test cannot drift apart).  Through the proxy: TLS, the service's answers
and headers unchanged, a live page following the host's close, the redirect from plain
HTTP, nginx's body limit; and afterwards no token in any log the proxy wrote, whatever
way a link was asked for.  Without nginx, Caddy or openssl these tests skip and say why
(`.ci/run` installs them)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import ssl
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from tests.helpers import REPO, invoke

from .support import STUDIO, Server, bearer, events, invite

DEPLOY = REPO / "docs" / "deploy.md"
START_SECONDS = 20


def snippet(title: str) -> str:
    """The indented block that follows the line starting with ``title`` in deploy.md."""
    lines = DEPLOY.read_text().splitlines()
    start = next(index for index, line in enumerate(lines) if line.startswith(title)) + 1
    block: list[str] = []
    for line in lines[start:]:
        if line.startswith("    ") or (not line.strip() and block):
            block.append(line[4:])
        elif line.strip():
            break
    return "\n".join(block).strip() + "\n"


def replaced(text: str, replacements: dict[str, str]) -> str:
    for old, new in replacements.items():
        assert old in text, f"docs/deploy.md no longer holds {old!r}: update this test with it"
        text = text.replace(old, new)
    return text


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def binary(name: str, *also: str) -> str:
    found = shutil.which(name) or next((path for path in also if os.access(path, os.X_OK)), None)
    if found is None:
        pytest.skip(f"{name} is not installed (Debian: apt-get install {name}; .ci/run installs it)")
    return found


def wait_for_tls(port: int, process: subprocess.Popen, log: Path, server_name: str = "localhost") -> None:
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the proxy exited {process.returncode}: {log.read_text(errors='replace')}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as raw:
                with context.wrap_socket(raw, server_hostname=server_name):
                    return
        except (OSError, ssl.SSLError):
            time.sleep(0.1)
    raise AssertionError(
        f"the proxy did not answer TLS on port {port} in {START_SECONDS} s: {log.read_text(errors='replace')}"
    )


def stopped(process: subprocess.Popen, sig: int) -> None:
    if process.poll() is None:
        process.send_signal(sig)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture
def lca_with_links(tmp_path):
    """An lca match in round 1 with cat still to submit; ann's link, an auditor's."""
    db = tmp_path / "league.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob,cat", "--studio", STUDIO)
    invoke(db, "submit", "m1", "ann", "G4", "A1", "B1", "C1", "D1")
    invoke(db, "submit", "m1", "bob", "F2", "A1", "B1", "C1", "D1")
    ann = invite(db, "m1", "--as", "ann", "--submit")["token"]
    auditor = invite(db, "m1", "--auditor")["token"]
    return db, ann, auditor


def through(proxy: httpx.Client, direct: Server, db: Path, ann: str, auditor: str) -> None:
    """What the service answers through ``proxy`` is what it answers directly, its live
    page follows the host's close, and links are asked for every way a browser, a
    careless paste or a hostile client might."""
    page = proxy.get(f"/p/{ann}")
    assert page.status_code == 200 and page.content == direct.client.get(f"/p/{ann}").content
    assert page.headers["referrer-policy"] == "no-referrer"
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    me = proxy.get("/api/v1/matches/m1/me", headers=bearer(ann))
    assert me.status_code == 200 and me.json() == direct.client.get("/api/v1/matches/m1/me", headers=bearer(ann)).json()
    assert proxy.get(f"/a/{auditor}/export").status_code == 200
    assert proxy.get(f"/p/{ann}", params={"at": 1}).status_code == 200
    assert proxy.get(f"/%70/{ann}").status_code == 200  # the same link, its "p" percent-encoded
    proxy.get(f"/x/{ann}")  # a link pasted in the wrong place
    proxy.get(f"/m/{ann}-x")  # ... with something glued to it
    proxy.get(f"/m/abcdefghijklmnopqrst{ann}")
    proxy.get(f"/x/{ann}/{auditor}")  # two of them
    with proxy.stream("GET", "/m/m1/events") as stream:
        [(kind, before)] = events(stream, 1)
        assert kind == "view"
        invoke(db, "submit", "m1", "cat", "A2", "A1", "B1", "C1", "D1")
        invoke(db, "close", "m1")  # the host, from the command line
        [(kind, after)] = events(stream, 1)
        assert kind == "view" and after != before and "round 2" in after["live"]


def no_token_in(folder: Path, *tokens: str) -> list[Path]:
    """Every log file the proxy wrote under ``folder``, none holding a token or any 12
    characters of one."""
    logs = [path for path in folder.rglob("*") if path.is_file() and path.suffix in (".log", ".txt")]
    assert logs
    for path in logs:
        text = path.read_text(errors="replace")
        for token in tokens:
            for start in range(len(token) - 11):
                assert token[start : start + 12] not in text, f"{path.name} holds a token: {text[-2000:]}"
    return logs


def trusted(db: Path) -> Server:
    """`serve` as docs/deploy.md runs it behind its proxy: believing the proxy's
    forwarded headers (and no one else's)."""
    option = "--forwarded-allow-ips 127.0.0.1"
    assert option in DEPLOY.read_text(), f"docs/deploy.md no longer runs serve with {option!r}: update this test"
    return Server(db, *option.split())


# --------------------------------------------------------------------------- nginx


def self_signed(folder: Path) -> tuple[Path, Path]:
    openssl = binary("openssl")
    cert, key = folder / "fullchain.pem", folder / "privkey.pem"
    subprocess.run(
        [
            openssl,
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=localhost",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


@pytest.mark.guarantee("service.log-no-token")
def test_the_nginx_snippet_serves_streams_redirects_limits_and_logs_no_token(lca_with_links, tmp_path):
    nginx = binary("nginx", "/usr/sbin/nginx")
    db, ann, auditor = lca_with_links
    folder = tmp_path / "nginx"
    folder.mkdir()
    cert, key = self_signed(folder)
    https_port, http_port = free_port(), free_port()
    with trusted(db) as direct:
        site = replaced(
            snippet("nginx:"),
            {
                "listen 443 ssl http2;": f"listen 127.0.0.1:{https_port} ssl http2;",
                "listen 80;": f"listen 127.0.0.1:{http_port};",
                "/etc/letsencrypt/live/games.example.org/fullchain.pem": str(cert),
                "/etc/letsencrypt/live/games.example.org/privkey.pem": str(key),
                "/var/log/nginx/matchledger.log": str(folder / "matchledger.log"),
                "http://127.0.0.1:8000": direct.url,
            },
        )
        temp = "\n".join(
            f"{kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        # What Debian's nginx.conf around the page's site holds: a default access log in
        # the combined format (the whole request line), which a site must not fall back on.
        (folder / "nginx.conf").write_text(
            f"daemon off;\nmaster_process off;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'};\n"
            f"events {{ worker_connections 64; }}\n"
            f"http {{\n{temp}\naccess_log {folder / 'access.log'} combined;\n{site}}}\n"
        )
        with open(folder / "stderr.txt", "wb") as stderr:  # the child keeps its own copy of the file
            started = subprocess.Popen(
                [nginx, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", str(folder / "error.log")],
                stdout=subprocess.DEVNULL,
                stderr=stderr,
            )
        try:
            wait_for_tls(https_port, started, folder / "error.log")
            with httpx.Client(
                base_url=f"https://127.0.0.1:{https_port}", verify=False, timeout=httpx.Timeout(10, read=15)
            ) as proxy:
                through(proxy, direct, db, ann, auditor)
                assert "max-age" in proxy.get(f"/p/{ann}").headers["strict-transport-security"]
                large = proxy.post("/api/v1/matches/m1/submissions", headers=bearer(ann), content=b" " * 20_000)
                assert large.status_code == 413  # refused by the proxy before it reaches the service
            plain = httpx.get(f"http://127.0.0.1:{http_port}/p/{ann}", follow_redirects=False)
            assert plain.status_code == 301 and plain.headers["location"].startswith("https://")
        finally:
            stopped(started, signal.SIGQUIT)
    logs = no_token_in(folder, ann, auditor)
    logged = (folder / "matchledger.log").read_text()
    for line in (
        '"GET /p/[token]"',
        '"GET /a/[token]/export"',
        '"GET /x/[token]"',
        '"GET /m/m1/events"',
        '"GET /m/[token]"',
        '"GET /x/[token]/[token]..."',
    ):
        assert line in logged
    assert "at=1" not in logged  # query strings are not logged
    assert folder / "matchledger.log" in logs


# --------------------------------------------------------------------------- Caddy


@pytest.mark.guarantee("service.log-no-token")
def test_the_caddy_snippet_serves_streams_and_logs_no_token(lca_with_links, tmp_path):
    caddy = binary("caddy")
    db, ann, auditor = lca_with_links
    folder = tmp_path / "caddy"
    folder.mkdir()
    https_port, http_port = free_port(), free_port()
    with trusted(db) as direct:
        site = replaced(
            snippet("Caddy"),
            {
                "games.example.org {": f"localhost:{https_port} {{",
                "127.0.0.1:8000": direct.url.removeprefix("http://"),
                "/var/log/caddy/matchledger.log": str(folder / "matchledger.log"),
            },
        )
        # Where the test's Caddy keeps its state and certificates (its own local CA: no
        # certificate authority is reached), and no admin endpoint.
        options = (
            f"{{\n\tadmin off\n\thttp_port {http_port}\n\thttps_port {https_port}\n"
            f"\tstorage file_system {folder / 'data'}\n\tlocal_certs\n\tskip_install_trust\n}}\n"
        )
        (folder / "Caddyfile").write_text(options + site)
        environment = {
            **os.environ,
            "HOME": str(folder),
            "XDG_DATA_HOME": str(folder / "data"),
            "XDG_CONFIG_HOME": str(folder / "config"),
        }
        with open(folder / "stderr.txt", "wb") as stderr:  # the child keeps its own copy of the file
            started = subprocess.Popen(
                [caddy, "run", "--config", str(folder / "Caddyfile"), "--adapter", "caddyfile"],
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                env=environment,
            )
        try:
            wait_for_tls(https_port, started, folder / "stderr.txt")
            with httpx.Client(
                base_url=f"https://localhost:{https_port}", verify=False, timeout=httpx.Timeout(10, read=15)
            ) as proxy:
                through(proxy, direct, db, ann, auditor)
        finally:
            stopped(started, signal.SIGTERM)
    no_token_in(folder, ann, auditor)
    logged = (folder / "matchledger.log").read_text()
    for uri in (
        '"/p/[token]"',
        '"/a/[token]/export"',
        '"/x/[token]"',
        '"/m/m1/events"',
        '"/m/[token]"',
        '"/x/[token]/[token]"',
    ):
        assert uri in logged

"""The deployment of docs/deploy.md on this machine: Debian's Caddy (``tls internal``)
in front of ``koth serve --workers 2`` on PostgreSQL; Chromium plays a card game and a
quiz question through it over HTTPS and WSS."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.conftest import postgres_schema
from tests.server.limits import GENEROUS_LIMITS
from tests.server.live_server import free_port

REPO = Path(__file__).resolve().parents[2]
CADDY = shutil.which("caddy")
CHROMIUM = Path("/usr/bin/chromium")

pytestmark = [
    pytest.mark.skipif(CADDY is None, reason="Debian's caddy is not installed"),
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM}"),
]
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


def wait_for(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    # a generous ceiling: two workers starting on a busy machine take their time
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{url}: exited\n{log.read_text()[-3000:]}")
        try:
            if httpx.get(url, verify=False, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The deployment's public address: https://localhost:<port>."""
    folder = tmp_path_factory.mktemp("deploy")
    app_port, https_port, http_port = free_port(), free_port(), free_port()
    processes: list[subprocess.Popen[bytes]] = []
    with postgres_schema("koth_deploy") as database:
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO)]),
            "KOTH_COMPUTER_DELAY": "0",
            "PROMETHEUS_MULTIPROC_DIR": str(folder),
            **{f"KOTH_{k.upper()}": str(v) for k, v in GENEROUS_LIMITS.items()},
        }
        command = [sys.executable, "-c", "from koth.cli import main; main()", "serve"]
        args = ["--port", str(app_port), "--database", database, "--workers", "2"]
        args += ["--forwarded-allow-ips", "127.0.0.1"]
        app_log = folder / "koth.log"
        try:  # whatever fails, no process started here outlives the test
            with app_log.open("wb") as out:
                processes.append(subprocess.Popen(command + args, env=env, stdout=out, stderr=out))
            wait_for(f"http://127.0.0.1:{app_port}/readyz", processes[-1], app_log)

            caddyfile = folder / "Caddyfile"
            caddyfile.write_text(
                "{\n\tadmin off\n\tskip_install_trust\n"
                f"\thttp_port {http_port}\n\thttps_port {https_port}\n}}\n"
                f"https://localhost:{https_port} {{\n\ttls internal\n"
                f"\treverse_proxy 127.0.0.1:{app_port}\n}}\n"
            )
            caddy_env = {**os.environ, "XDG_DATA_HOME": str(folder), "XDG_CONFIG_HOME": str(folder)}
            caddy_log = folder / "caddy.log"
            with caddy_log.open("wb") as out:
                processes.append(
                    subprocess.Popen(
                        [str(CADDY), "run", "--config", str(caddyfile), "--adapter", "caddyfile"],
                        env=caddy_env,
                        stdout=out,
                        stderr=out,
                    )
                )
            url = f"https://localhost:{https_port}"
            wait_for(f"{url}/healthz", processes[-1], caddy_log)
            yield url
        finally:
            for process in reversed(processes):
                process.terminate()
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            yield chromium
        finally:
            chromium.close()


def test_a_card_game_over_https_and_wss(site: str, browser: Any) -> None:
    from tests.server.games.browser.conftest import play_by_clicking

    context = browser.new_context(ignore_https_errors=True)
    page = context.new_page()
    page.set_default_timeout(30_000)
    seats = [{"kind": "human"}, {"kind": "computer", "agent": "random"}]
    with httpx.Client(base_url=site, verify=False, timeout=60) as client:
        created = client.post("/api/games", json={"game": "cards", "seats": seats}).json()
        assert client.get("/readyz").json()["status"] == "ok"
    page.goto(created["seats"][0]["join_url"])
    page.wait_for_selector("#table .pyramid")
    clicks = play_by_clicking(page, random.Random(3))
    assert clicks > 0 and page.locator("#table").get_attribute("data-finished") == "true"
    assert page.evaluate("location.protocol") == "https:"
    context.close()


def test_a_quiz_question_over_https_and_wss(site: str, browser: Any) -> None:
    context = browser.new_context(ignore_https_errors=True, viewport={"width": 390, "height": 844})
    with httpx.Client(base_url=site, verify=False, timeout=60) as client:
        event = client.post("/api/quiz/events", json={"teams": ["Owls"], "questions": 3}).json()
        host = {"Authorization": f"Bearer {event['host_token']}"}
        base = f"/api/quiz/events/{event['id']}"
        phone = context.new_page()
        phone.set_default_timeout(30_000)
        phone.goto(f"{site}/quiz/join?code={event['join_code']}")
        phone.locator("[name=team]").fill("Bears")
        phone.locator("#join-form button[type=submit]").click()
        phone.wait_for_url(lambda url: url.endswith("/team"))
        projector = context.new_page()
        projector.goto(f"{site}/quiz/{event['id']}/projector")
        for command in ("start", "open_question", "lock", "open_answering"):
            assert client.post(f"{base}/judge/{command}", json={}, headers=host).status_code == 200
        phone.locator("#answer-text").fill("Paris")
        phone.locator("#send-answer").click()
        sync_api.expect(phone.locator("#answer-status")).to_contain_text("accepted")
        judge = client.get(f"{base}/judge", headers=host).json()
        assert judge["open"]["answered"] == 1
        for command, body in (("judge", {"teams": ["Bears"], "correct": True}), ("resolve", {})):
            assert (
                client.post(f"{base}/judge/{command}", json=body, headers=host).status_code == 200
            )
        sync_api.expect(phone.locator("#my-points")).not_to_have_text("")
    context.close()

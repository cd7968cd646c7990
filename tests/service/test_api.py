"""The JSON API, the pages and their streams, against a real `matchledger serve` process:
every endpoint, every error code, tokens scoped to one match and one role and revoked,
the headers of every answer, and an access log that never holds a token."""

from __future__ import annotations

import re
import shutil
import signal
import sqlite3

import httpx
import pytest

from tests.helpers import invoke

from .support import STUDIO, Server, bearer, cli_json, events, invite

LCA_ROUND_1 = {"ann": "G4 A1 B1 C1 D1", "bob": "F2 A1 B1 C1 D1"}
API = {
    "/api/v1/matches/{match}/public",
    "/api/v1/matches/{match}/head",
    "/api/v1/matches/{match}/me",
    "/api/v1/matches/{match}/submissions",
    "/api/v1/matches/{match}/export",
    "/api/v1/matches/{match}/events",
    "/api/v1/openapi.json",
    "/api/v1/matches/{match}/choices",
    "/p/{token}/choices",
    "/healthz",
    "/readyz",
}


@pytest.fixture(scope="module")
def api_db(tmp_path_factory):
    """An lca match in round 1 (cat has not submitted), a pw match, a photographer match."""
    db = tmp_path_factory.mktemp("serve") / "league.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob,cat", "--studio", STUDIO)
    for player, cells in LCA_ROUND_1.items():
        invoke(db, "submit", "m1", player, *cells.split())
    invoke(db, "new", "pw", "p1", "--players", "ann,bob", "--pair", "ann=zed", "--pair", "bob=yan")
    invoke(db, "submit", "p1", "ann", "gift:bob", "learn:yan")
    invoke(db, "new", "photographer", "g1", "--players", "ann,bob", "--seed", str(2**50))
    return db


@pytest.fixture(scope="module")
def api_links(api_db):
    return {
        "ann": invite(api_db, "m1", "--as", "ann", "--submit"),
        "cat": invite(api_db, "m1", "--as", "cat", "--submit"),
        "bob-read": invite(api_db, "m1", "--as", "bob"),
        "auditor": invite(api_db, "m1", "--auditor"),
        "zed": invite(api_db, "p1", "--as", "zed", "--submit"),
        "revoked": invite(api_db, "m1", "--as", "bob", "--submit"),
    }


@pytest.fixture(scope="module")
def api_server(api_db, api_links):
    invoke(api_db, "revoke", api_links["revoked"]["token"])
    with Server(api_db) as running:
        yield running


def tokens(links) -> list[str]:
    return [link["token"] for link in links.values()]


# --------------------------------------------------------------------------- reads: exactly the CLI's


@pytest.mark.guarantee("service.api-equals-cli")
@pytest.mark.parametrize("match", ["m1", "p1", "g1"])
def test_public_is_exactly_the_cli_public_json_now_and_at_every_seq(api_server, api_db, api_links, match):
    public_log = cli_json(api_db, "log", match, "--public")
    head = api_server.client.get(f"/api/v1/matches/{match}/head").json()
    assert head == {"seq": public_log[-1]["seq"], "hash": public_log[-1]["hash"]}  # the last public event
    full = api_server.client.get(f"/api/v1/matches/{match}/head", headers=bearer(api_links["auditor"]["token"]))
    if match == "m1":  # an auditor's token is for its own match; the host's `head` is the full head
        assert full.json() == {k: v for k, v in cli_json(api_db, "head", match).items() if k in ("seq", "hash")}
    else:
        assert full.status_code == 401
    public_seqs = {entry["seq"] for entry in public_log}
    for at in [None, *range(1, cli_json(api_db, "head", match)["seq"] + 2)]:
        query = {} if at is None else {"at": at}
        answer = api_server.client.get(f"/api/v1/matches/{match}/public", params=query)
        if at is not None and at not in public_seqs:  # an event the public may not know of, or none
            detail = f"at={at} is not the seq of an event the public may know of in match {match!r}"
            assert answer.status_code == 400 and answer.json() == {
                "type": "urn:matchledger:problem:outside-view",
                "title": "Not an event this viewer may know of",
                "status": 400,
                "detail": detail,
                "error": detail,
                "match": match,
                "parameter": "at",
                "at": at,
            }
            continue
        assert answer.status_code == 200 and answer.headers["content-type"] == "application/json"
        at_args = [] if at is None else ["--at", at]
        assert answer.json() == {
            model: cli_json(api_db, model, match, "--public", *at_args) for model in ("status", "reveals", "outcome")
        }


@pytest.mark.guarantee("service.api-equals-cli")
@pytest.mark.parametrize("who, match, name", [("ann", "m1", "ann"), ("bob-read", "m1", "bob"), ("zed", "p1", "zed")])
def test_me_is_exactly_the_cli_knowledge_of_the_tokens_participant(api_server, api_db, api_links, who, match, name):
    mine = [entry["seq"] for entry in cli_json(api_db, "log", match, "--as", name)]
    for at in (None, *mine):
        query = {} if at is None else {"at": at}
        answer = api_server.client.get(
            f"/api/v1/matches/{match}/me", params=query, headers=bearer(api_links[who]["token"])
        )
        assert answer.status_code == 200, answer.text
        at_args = [] if at is None else ["--at", at]
        assert answer.json() == {
            "participant": name,
            "knowledge": cli_json(api_db, "knowledge", match, "--as", name, *at_args),
        }


def test_an_auditor_exports_exactly_what_export_writes(api_server, api_db, api_links, tmp_path):
    answer = api_server.client.get("/api/v1/matches/m1/export", headers=bearer(api_links["auditor"]["token"]))
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/x-ndjson"
    invoke(api_db, "export", "m1", "-o", tmp_path / "m1.jsonl")
    assert answer.content == (tmp_path / "m1.jsonl").read_bytes()
    page = api_server.client.get(f"/a/{api_links['auditor']['token']}")
    assert page.status_code == 200 and "Download the whole log" in page.text
    assert api_server.client.get(f"/a/{api_links['auditor']['token']}/export").content == answer.content


# --------------------------------------------------------------------------- writing


@pytest.mark.guarantee("service.self-submission")
def test_a_participant_records_their_own_submission_and_verify_proves_the_receipt(api_server, api_db, api_links):
    answer = api_server.client.post(
        "/api/v1/matches/m1/submissions",
        json={"tokens": ["g5", "A2", "B2", "C2", "D2"]},
        headers=bearer(api_links["cat"]["token"]),
    )
    assert answer.status_code == 201, answer.text
    receipt = answer.json()
    assert set(receipt) == {"seq", "hash"}
    [row] = [r for r in cli_json(api_db, "log", "m1") if r["seq"] == receipt["seq"]]
    assert (row["kind"], row["actor"], row["hash"]) == ("SubmissionRecorded", "cat", receipt["hash"])
    assert row["event"]["tokens"] == ["G5", "A2", "B2", "C2", "D2"]  # decided by the game: normalized
    assert (
        "1 receipt in the verified chain"
        in invoke(api_db, "verify", "m1", "--receipt", f"{receipt['seq']}:{receipt['hash']}").output
    )
    # cat's own page lists it with its receipt; the public page does not know of it
    mine = api_server.client.get(f"/p/{api_links['cat']['token']}").text
    assert f"{receipt['seq']}:{receipt['hash']}" in mine
    assert receipt["hash"] not in api_server.client.get("/m/m1").text


@pytest.mark.guarantee("service.self-submission")
def test_the_rules_refuse_with_422_and_the_cli_message_and_nothing_is_written(api_server, api_db, api_links):
    before = cli_json(api_db, "head", "m1")
    cli = invoke(api_db, "submit", "m1", "ann", "A1", "A1", "B1", "C1", "D1", expect=1).output
    answer = api_server.client.post(
        "/api/v1/matches/m1/submissions",
        json={"tokens": ["A1", "A1", "B1", "C1", "D1"]},
        headers=bearer(api_links["ann"]["token"]),
    )
    assert answer.status_code == 422
    assert cli.strip() == f"Error: {answer.json()['error']}"
    too_many = api_server.client.post(
        "/api/v1/matches/m1/submissions", json={"tokens": ["A1"] * 40}, headers=bearer(api_links["ann"]["token"])
    )
    assert too_many.status_code == 422 and "at most 32" in too_many.json()["error"]
    assert cli_json(api_db, "head", "m1") == before


@pytest.mark.parametrize(
    "body", [b"", b"[]", b'{"tokens": "A1"}', b'{"tokens": ["A1"], "as": "bob"}', b"{", b"x" * 20000]
)
def test_a_body_that_is_not_a_submission_is_400(api_server, api_links, body):
    answer = api_server.client.post(
        "/api/v1/matches/m1/submissions",
        content=body,
        headers={**bearer(api_links["ann"]["token"]), "content-type": "application/json"},
    )
    assert answer.status_code == 400 and answer.json()["error"]


def test_a_participants_form_records_their_submission_and_shows_the_receipt(api_server, api_db, api_links):
    token = api_links["zed"]["token"]
    page = api_server.client.get(f"/p/{token}")
    assert page.status_code == 200 and 'name="a1_type"' in page.text and 'method="post"' in page.text
    refused = api_server.client.post(
        f"/p/{token}", data={"a1_type": "gift", "a1_target": "bob", "a2_type": "gift", "a2_target": "yan"}
    )
    assert refused.status_code == 422 and "Not recorded" in refused.text
    # the lists keep what was chosen (the typed field keeps only what was typed: nothing)
    assert '<option value="bob" selected>' in refused.text and '<option value="yan" selected>' in refused.text
    answer = api_server.client.post(
        f"/p/{token}",
        data={"a1_type": "watch", "a1_target": "bob", "a2_type": "predict", "a2_target": "yan", "a2_predict": "swap"},
    )
    assert answer.status_code == 303
    done = api_server.client.get(f"/p/{token}", params={"recorded": answer.headers["location"].rpartition("=")[2]})
    [row] = [r for r in cli_json(api_db, "log", "p1") if r["actor"] == "zed"]
    assert row["event"]["tokens"] == ["watch:bob", "predict:yan=swap"]
    assert f'Your receipt: <code class="receipt">{row["seq"]}:{row["hash"]}</code>' in done.text


def test_a_photographers_form_takes_from_a_row_and_winds_and_waits_when_it_is_not_their_turn(api_server, api_db):
    ann, bob = (invite(api_db, "g1", "--as", who, "--submit")["token"] for who in ("ann", "bob"))
    page = api_server.client.get(f"/p/{ann}").text
    assert all(f'name="{field}"' in page for field in ("take_row", "take_end", "take_count", "wind_from", "wind_to"))
    assert "Waiting for ann to play." in api_server.client.get(f"/p/{bob}").text
    answer = api_server.client.post(
        f"/p/{ann}", data={"take_row": "1", "take_end": "left", "take_count": "1", "wind_from": "1", "wind_to": "3"}
    )
    assert answer.status_code == 303, answer.text
    [row] = [r for r in cli_json(api_db, "log", "g1") if r["kind"] == "SubmissionRecorded"]
    assert (row["actor"], row["event"]["tokens"]) == ("ann", ["take", "1", "left", "1", "wind", "1:3"])
    assert "Waiting for bob to play." in api_server.client.get(f"/p/{ann}").text  # the form follows the turn


# --------------------------------------------------------------------------- tokens: scoped, revocable, no hints


@pytest.mark.guarantee("service.tokens-scoped")
def test_a_token_opens_only_its_match_and_role_and_says_nothing_of_what_exists(api_server, api_links):
    def me(match, token=None, path="me"):
        return api_server.client.get(f"/api/v1/matches/{match}/{path}", headers=bearer(token) if token else {})

    missing = me("m1")
    assert missing.status_code == 401 and missing.headers["www-authenticate"] == "Bearer"
    # unknown, revoked, another match's, a match that does not exist: one answer
    answers = [
        me("m1", "x" * 32),
        me("m1", api_links["revoked"]["token"]),
        me("m1", api_links["zed"]["token"]),
        me("nosuch", api_links["ann"]["token"]),
        me("m1", "not a token at all"),
        me("m1", api_links["ann"]["token"][:-1]),
    ]
    assert {(a.status_code, a.text) for a in answers} == {(401, answers[0].text)}
    assert "invalid_token" in answers[0].headers["www-authenticate"]
    assert (
        api_server.client.get(
            "/api/v1/matches/m1/me", headers={"Authorization": f"Basic {api_links['ann']['token']}"}
        ).status_code
        == 401
    )
    # a valid token without the right: 403
    assert me("m1", api_links["auditor"]["token"]).status_code == 403
    assert me("m1", api_links["ann"]["token"], "export").status_code == 403
    read_only = api_server.client.post(
        "/api/v1/matches/m1/submissions", json={"tokens": ["A1"]}, headers=bearer(api_links["bob-read"]["token"])
    )
    assert read_only.status_code == 403 and "reads only" in read_only.json()["error"]
    # pages: a link that opens nothing, whatever the reason, one answer
    pages = [
        api_server.client.get(f"/p/{t}")
        for t in ("x" * 32, api_links["revoked"]["token"], api_links["auditor"]["token"])
    ]
    assert {(p.status_code, p.text) for p in pages} == {(403, pages[0].text)}
    assert api_server.client.get(f"/a/{api_links['ann']['token']}").status_code == 403


@pytest.mark.guarantee("service.tokens-scoped")
def test_revoking_a_link_closes_it_at_once(api_server, api_db):
    link = invite(api_db, "m1", "--as", "cat")
    assert api_server.client.get("/api/v1/matches/m1/me", headers=bearer(link["token"])).status_code == 200
    invoke(api_db, "revoke", link["url"])
    assert api_server.client.get("/api/v1/matches/m1/me", headers=bearer(link["token"])).status_code == 401
    page = api_server.client.get(f"/p/{link['token']}")
    assert page.status_code == 403


def test_a_closed_link_page_says_what_to_do_and_the_same_whatever_the_reason(api_server, api_db):
    """A revoked link and a mistyped one get the same page (no hint of which), which says
    to ask the host for a new link, not "this link opens nothing here" under a heading that
    already says the link opens nothing."""
    link = invite(api_db, "m1", "--as", "cat")
    invoke(api_db, "revoke", link["url"])
    revoked = api_server.client.get(f"/p/{link['token']}")
    mistyped = api_server.client.get(f"/p/{'x' * len(link['token'])}")
    assert revoked.status_code == mistyped.status_code == 403
    assert revoked.content == mistyped.content
    assert "ask the match&#x27;s host for a new one" in revoked.text
    assert "opens nothing here" not in revoked.text  # the heading says it once; the text says what to do


@pytest.mark.guarantee("service.tokens-scoped")
def test_a_revoked_links_open_stream_ends_before_it_sends_anything_new(tmp_path):
    """Sent nothing more, and ended at a keep-alive beat: when the match moves is no
    business of a revoked link."""
    db = tmp_path / "revoke.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    link = invite(db, "m1", "--as", "ann", "--submit")
    with (
        Server(db, "--keep-alive", "0.5") as running,
        running.client.stream("GET", f"/p/{link['token']}/events") as stream,
    ):
        lines = stream.extensions.setdefault("sse-lines", stream.iter_lines())
        [(kind, _first)] = events(stream, 1)
        assert kind == "view"
        invoke(db, "revoke", link["token"])
        invoke(db, "submit", "m1", "ann", *LCA_ROUND_1["ann"].split())  # ann's own view changes
        [(kind, refused)] = events(stream, 1)
        assert kind == "refused" and "revoked" in refused["error"]
        assert list(lines) == []  # and the stream ends


# --------------------------------------------------------------------------- every error code


def test_errors_are_problem_details_with_their_codes(api_server, api_links):
    get = api_server.client.get
    unknown = get("/api/v1/matches/zz/public")
    assert (unknown.status_code, unknown.headers["content-type"], unknown.json()) == (
        404,
        "application/problem+json",
        {
            "type": "urn:matchledger:problem:unknown-match",
            "title": "No such match",
            "status": 404,
            "detail": "no match 'zz'",
            "error": "no match 'zz'",
            "match": "zz",
        },
    )
    assert get("/api/v1/matches/zz/head").status_code == 404
    assert get("/api/v1/nothing").json() == {
        "type": "about:blank",
        "title": "Not Found",
        "status": 404,
        "detail": "not found",
        "error": "not found",
    }
    assert api_server.client.delete("/api/v1/matches/m1/public").status_code == 405
    for bad in ("abc", "0", "-1", "99999"):
        answer = get("/api/v1/matches/m1/public", params={"at": bad})
        assert answer.status_code == 400 and answer.headers["content-type"] == "application/problem+json", bad
        problem = answer.json()
        assert problem["error"] == problem["detail"] and problem["status"] == 400 and problem["parameter"] == "at"
    assert get("/m/zz").status_code == 404 and "text/html" in get("/m/zz").headers["content-type"]


@pytest.mark.guarantee("service.busy")
def test_a_write_lock_held_past_the_timeout_is_503_to_try_again_and_reads_go_on(api_db, tmp_path):
    copy = tmp_path / "busy.db"
    invoke(copy, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    link = invite(copy, "m1", "--as", "ann", "--submit")
    submission = {"tokens": LCA_ROUND_1["ann"].split()}
    with Server(copy, env={"MATCHLEDGER_LOCK_TIMEOUT": "0.3"}) as running:
        holder = sqlite3.connect(copy, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another writer holds the lock
        try:
            busy = running.client.post("/api/v1/matches/m1/submissions", json=submission, headers=bearer(link["token"]))
            assert (busy.status_code, busy.headers["retry-after"]) == (503, "2")
            assert "busy" in busy.json()["error"] and str(copy) not in busy.text
            assert running.client.get("/api/v1/matches/m1/public").status_code == 200  # readers never wait
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert cli_json(copy, "head", "m1")["seq"] == 1  # the refused submission wrote nothing
        done = running.client.post("/api/v1/matches/m1/submissions", json=submission, headers=bearer(link["token"]))
        assert done.status_code == 201 and done.json()["seq"] == 2


@pytest.mark.guarantee("service.tamper-refused")
def test_a_tampered_match_is_refused_with_409_and_nothing_of_it_is_shown(api_db, tmp_path):
    copy = tmp_path / "tampered.db"
    for suffix in ("", "-wal", "-shm"):
        if (api_db.parent / (api_db.name + suffix)).exists():
            shutil.copy(api_db.parent / (api_db.name + suffix), tmp_path / (copy.name + suffix))
    link = invite(copy, "m1", "--as", "ann")
    with sqlite3.connect(copy) as conn:
        conn.execute("DROP TRIGGER events_no_update")
        conn.execute("UPDATE events SET body = replace(body, 'G4', 'H4') WHERE match_id = 'm1' AND seq = 2")
    with Server(copy) as running:
        for path, headers in (
            ("/api/v1/matches/m1/public", {}),
            ("/api/v1/matches/m1/head", {}),
            ("/api/v1/matches/m1/me", bearer(link["token"])),
        ):
            answer = running.client.get(path, headers=headers)
            assert answer.status_code == 409, path
            assert "does not verify" in answer.json()["error"] and "seq" not in answer.json(), path
            assert not re.search(r"seq \d", answer.json()["error"]), answer.json()["error"]
        page = running.client.get("/m/m1")
        assert page.status_code == 409 and "H4" not in page.text and "G4" not in page.text
        assert running.client.get("/api/v1/matches/p1/head").status_code == 200  # other matches are served


# --------------------------------------------------------------------------- headers, pages, OpenAPI


@pytest.mark.guarantee("service.headers")
def test_every_answer_carries_the_security_headers(api_server, api_links):
    answers = [
        api_server.client.get(path)
        for path in (
            "/",
            "/m/m1",
            f"/p/{api_links['ann']['token']}",
            "/api/v1/matches/m1/public",
            "/api/v1/nothing",
            "/assets/live.js",
            "/assets/service.css",
            "/api/v1/openapi.json",
            "/p/nothing",
        )
    ]
    for answer in answers:
        csp = answer.headers["content-security-policy"]
        assert "default-src 'none'" in csp and "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert "unsafe-inline" not in csp and "http" not in csp
        assert answer.headers["referrer-policy"] == "no-referrer"
        assert answer.headers["x-content-type-options"] == "nosniff"
    assert answers[2].headers["cache-control"] == "no-store"


@pytest.mark.guarantee("service.headers")
def test_pages_hold_no_inline_script_and_nothing_from_another_origin(api_server, api_links):
    for path in (
        "/m/m1",
        f"/p/{api_links['ann']['token']}",
        f"/p/{api_links['zed']['token']}",
        f"/a/{api_links['auditor']['token']}",
        "/",
    ):
        html = api_server.client.get(path).text
        scripts = re.findall(r"<script\b[^>]*>", html)
        assert scripts == ['<script src="../assets/live.js">'], (path, scripts)
        assert not re.search(r"<script[^>]*>\s*\S", html.replace('<script src="../assets/live.js"></script>', ""))
        assert not re.search(r"""(src|href|action)=["']?(https?:)?//""", html), path
        assert not re.search(r"<[^>]+\son[a-z]+=", html), path  # no inline event handlers
        assert 'name="viewport"' in html


def test_the_openapi_description_names_every_api_route(api_server):
    description = api_server.client.get("/api/v1/openapi.json").json()
    assert description["openapi"].startswith("3.") and set(description["paths"]) == API
    assert description["components"]["securitySchemes"]["token"] == {
        "type": "http",
        "scheme": "bearer",
        "description": description["components"]["securitySchemes"]["token"]["description"],
    }
    for path, methods in description["paths"].items():
        for method in methods:
            with api_server.client.stream(method.upper(), path.replace("{match}", "m1")) as answer:  # a feed never ends
                assert answer.status_code not in (404, 405), (method, path)


# --------------------------------------------------------------------------- live streams


@pytest.mark.guarantee("service.live")
def test_the_public_stream_sends_a_view_only_when_the_public_view_changes(api_db, tmp_path):
    copy = tmp_path / "live.db"
    invoke(copy, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    invoke(copy, "submit", "m1", "ann", "G4", "A1", "B1", "C1", "D1")
    with Server(copy) as running:
        timeout = httpx.Timeout(10, read=1.5)
        with running.client.stream("GET", "/m/m1/events", timeout=timeout) as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            [(kind, first)] = events(stream, 1)
            assert kind == "view" and "round 1 (lights)" in first["live"]
            # bob submits (the public may not know when): nothing is sent
            invoke(copy, "submit", "m1", "bob", "F2", "A1", "B1", "C1", "D1")
            with pytest.raises(httpx.ReadTimeout):
                events(stream, 1)
        with running.client.stream("GET", "/m/m1/events", timeout=httpx.Timeout(10, read=10)) as stream:
            [(_, again)] = events(stream, 1)
            assert again == first  # and reconnecting shows exactly the same
            invoke(copy, "close", "m1")  # the host, from the command line, in another process
            [(kind, closed)] = events(stream, 1)
            assert kind == "view" and "round 2 (cameras)" in closed["live"] and "F2" in closed["live"]


@pytest.mark.guarantee("service.graceful")
def test_serve_announces_where_it_listens_and_stops_gracefully_on_sigterm_and_sigint(api_db, tmp_path):
    for sig in (signal.SIGTERM, signal.SIGINT):
        running = Server(api_db, log_json=False)
        assert running.announced.startswith(f"serving {api_db}") and running.url.startswith("http://127.0.0.1:")
        with httpx.Client(base_url=running.url, timeout=httpx.Timeout(10, read=10)) as viewer:
            with viewer.stream("GET", "/m/m1/events") as stream:
                assert events(stream, 1)[0][0] == "view"
                assert running.client.get("/api/v1/matches/m1/head").status_code == 200
                assert running.stop(sig) == 0
                assert list(stream.extensions["sse-lines"]) == []  # the stream was ended, not cut
        assert "stopped" in running.log() and "Traceback" not in running.log()


# --------------------------------------------------------------------------- the access log


@pytest.mark.guarantee("service.log-no-token")
def test_the_access_log_is_structured_and_never_holds_a_token(api_server, api_links):
    with api_server.client.stream("GET", f"/p/{api_links['ann']['token']}/events") as stream:
        assert events(stream, 1)[0][0] == "view"
    for token in tokens(api_links):
        api_server.client.get(f"/p/{token}")
        api_server.client.get(f"/x/{token}")  # a link pasted in the wrong place
        api_server.client.get(f"/p/{token[:20]}/events")  # a link cut short: still most of a secret
        api_server.client.get("/api/v1/matches/m1/me", headers=bearer(token))
    api_server.client.get("/m/%C2%9B2J%E2%80%AEx")  # a terminal's control sequence and a bidi override
    records = api_server.log_records()
    requests = [r for r in records if r.get("event") == "request"]
    assert len(requests) >= 3 * len(api_links)
    assert "/m/\u009b2J\u202ex" in {r["path"] for r in requests}  # logged as it was asked for
    assert all(line.isascii() for line in api_server.log().splitlines() if line.startswith("{"))  # ...escaped
    assert {"/p/[token]", "/x/[token]", "/api/v1/matches/m1/me"} <= {r["path"] for r in requests}
    assert all({"method", "path", "status", "ms", "bytes"} <= set(r) for r in requests)
    text = api_server.log()
    for token in tokens(api_links):
        assert token not in text and token[:12] not in text
    assert "authorization" not in text.lower() and "bearer" not in text.lower()


@pytest.mark.guarantee("service.log-no-token")
def test_the_console_access_log_writes_a_hostile_paths_control_characters_escaped(api_db, api_links):
    """Without --log-json the access line is text for a terminal: a path asking for
    ESC [2J (clear the screen), a C1 control and a bidi override is written escaped."""
    with Server(api_db, log_json=False) as running:
        running.client.get("/m/%1B%5B2J%C2%9B%E2%80%AEx")
        running.client.get(f"/p/{api_links['ann']['token']}")
        text = running.log(until="path=/p/")
    assert "path=/m/\\x1b[2J\\x9b\\u202ex" in text
    assert "\x1b" not in text and "\x9b" not in text and "\u202e" not in text
    assert "path=/p/[token]" in text and api_links["ann"]["token"] not in text

"""`hook add`, `hook list` and `hook remove`: the secret shown once and never again, bad
input refused naming the bad value with nothing kept, and nothing of a hook in the log
or an export."""

from __future__ import annotations

from tests.helpers import REPO, invoke, read_json

STUDIO = REPO / "fixtures" / "lca" / "studio-example-10x13.txt"
URL = "https://chat.example.org/api/webhooks/1/abc"


def match(db) -> None:
    invoke(db, "new", "lca", "m1", "--players", "ann,bob,cat", "--studio", STUDIO)


def test_add_shows_the_secret_once_and_list_never(tmp_path):
    db = tmp_path / "m.db"
    match(db)
    added = invoke(db, "hook", "add", "m1", URL, "--on", "close,finished,deadline").stdout
    first, second = added.splitlines()
    hook_id = first.split()[1]
    assert first == f"hook {hook_id} on m1: posts close, finished, deadline to {URL} as discord"
    secret = second.rsplit(" ", 1)[1]
    assert second.startswith("secret (shown once") and len(secret) >= 40
    listed = invoke(db, "hook", "list").stdout
    assert listed.startswith("hooks: 1, 1 active\n") and hook_id in listed and secret not in listed
    [shown] = read_json(db, "hook", "list", "m1", "--json")
    assert shown["id"] == hook_id and shown["on"] == ["close", "finished", "deadline"] and "secret" not in shown
    assert shown["deliveries"] == [] and shown["format"] == "discord"


def test_a_hook_is_kept_beside_the_log_never_in_it(tmp_path):
    db = tmp_path / "m.db"
    match(db)
    log, exported = invoke(db, "log", "m1").stdout, invoke(db, "export", "m1").stdout
    invoke(db, "hook", "add", "m1", URL, "--format", "json")
    assert (invoke(db, "log", "m1").stdout, invoke(db, "export", "m1").stdout) == (log, exported)


def test_bad_input_is_refused_naming_it_and_nothing_is_kept(tmp_path):
    db = tmp_path / "m.db"
    match(db)
    refusals = {
        ("ftp://chat.example.org/x",): "'ftp://chat.example.org/x' is not an address to post to",
        ("https://user:pw@chat.example.org/x",): "'https://user:pw@chat.example.org/x' is not an address to post to",
        ("https://chat.example.org:99999/x",): "'https://chat.example.org:99999/x' is not an address to post to",
        (URL, "--on", "close,sunset"): "'sunset' is not a kind of post",
        (URL, "--on", ","): "is not a kind of post",
    }
    for args, words in refusals.items():
        refused = invoke(db, "hook", "add", "m1", *args, expect=1)
        assert words in refused.stderr and refused.stdout == ""
    assert "is not one of" in invoke(db, "hook", "add", "m1", URL, "--format", "slack", expect=2).stderr
    assert "no-such" in invoke(db, "hook", "add", "no-such", URL, expect=1).stderr
    assert read_json(db, "hook", "list", "--json") == []


def test_remove_stops_a_hook_once_and_names_an_unknown_one(tmp_path):
    db = tmp_path / "m.db"
    match(db)
    hook_id = read_json(db, "hook", "add", "m1", URL, "--json")["id"]
    assert (
        invoke(db, "hook", "remove", hook_id).stdout == f"hook {hook_id} on m1 removed: nothing more is posted to it\n"
    )
    again = invoke(db, "hook", "remove", hook_id).stdout
    assert again.startswith(f"hook {hook_id} on m1 was already removed at ")
    assert "'hnope'" in invoke(db, "hook", "remove", "hnope", expect=1).stderr
    assert invoke(db, "hook", "list").stdout.startswith("hooks: 1, 0 active\n")


def test_list_reads_without_writing_and_an_unknown_match_is_an_error(tmp_path):
    db = tmp_path / "m.db"
    match(db)
    assert invoke(db, "hook", "list").stdout == "hooks: 0, 0 active\n"
    assert "'zz'" in invoke(db, "hook", "list", "zz", expect=1).stderr

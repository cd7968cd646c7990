"""The planted bugs: each one realistic, one line (or one statement), and named with the
tests that should decide it directly -- never a broad snapshot or a random oracle, which
catch a bug only by luck.  Paths are relative to the repository's root.

The first seven are the issue's: three the suite missed entirely, four it caught only
by a snapshot or a random seed.  The rest reconstruct the other bugs planted by hand.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mutant:
    name: str
    path: str
    before: str  # must occur exactly once in the file
    after: str
    tests: tuple[str, ...]  # pytest node ids or files
    bug: str  # what goes wrong, in a few words


PHOTO_RULES = "tests/photographer/test_rules.py"
PHOTO_SCORING = "tests/photographer/test_scoring.py"
STORE = "tests/contracts/test_store_contract.py::TestStoreContract"
LCA_LIGHTS = "tests/lca/test_lights.py"
LCA_ENDGAME = "tests/lca/test_endgame.py"
LCA_ROUNDS = "tests/lca/test_cameras_actions.py"
PW_RESOLUTION = "tests/pw/test_resolution.py"
PW_ENDGAME = "tests/pw/test_endgame.py"
TAMPER = "tests/trust/tampering/test_verify_checks.py"
CLI_HEADS = "tests/cli/test_heads.py"
SERVICE_API = "tests/service/test_api.py"
POSTGRES = "tests/postgres"

# Transactions.transaction's body, and the same with no transaction at all (the rows are
# still inserted together at the end, but each INSERT commits on its own).
_TRANSACTION = """\
        if self._depth == 0:
            self._begin()
        self._depth += 1
        try:
            yield
            if self._depth == 1:
                for holder in self._holders:
                    holder.flush()
        except BaseException:
            self._depth -= 1
            if self._depth == 0:
                for holder in self._holders:
                    holder.forget(unwritten=True)
                self._rollback()
            raise
        self._depth -= 1
        if self._depth == 0:
            for holder in self._holders:
                holder.forget(unwritten=False)
            self._commit()
"""
_NO_TRANSACTION = """\
        self._depth += 1
        try:
            yield
            if self._depth == 1:
                for holder in self._holders:
                    holder.flush()
        finally:
            self._depth -= 1
            if self._depth == 0:
                for holder in self._holders:
                    holder.forget(unwritten=True)
"""

MUTANTS: list[Mutant] = [
    # ------------------------------------------------------------------ the seven
    Mutant(
        "photographer-row-cutoff-6",
        "engine/photographer/scoring.py",
        'rows += row_points[_LENGTH_KEY[length] if length < 7 else "7"]',
        'rows += row_points[_LENGTH_KEY[length] if length < 6 else "7"]',
        (PHOTO_SCORING,),
        "a 6-card row scores the 7-card value (11, not 10); row_points[6] ignored",
    ),
    Mutant(
        "store-append-ahead-of-the-log",
        "ledger/event_log.py",
        "if last_seq + 1 != expected_seq:",
        "if last_seq + 1 > expected_seq:",
        (f"{STORE}::test_an_append_expecting_a_seq_past_the_log_conflicts_and_writes_nothing",),
        "an append expecting a seq past the log's end writes it, leaving a gap",
    ),
    Mutant(
        "store-update-trigger-narrowed",
        "ledger/sqlite_schema.py",
        '"CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events "',
        '"CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE OF body, prev_hash, hash ON events "',
        (f"{STORE}::test_update_through_a_plain_connection_fails",),
        "match_id, seq, kind, actor, recorded_at can be updated from a plain connection",
    ),
    Mutant(
        "lca-camera-sharing-at-distance-2",
        "engine/lca/cameras.py",
        "if not any(-2 <= r - r2 <= 2 and -2 <= c - c2 <= 2 for r2, c2 in others)",
        "if not any(-2 < r - r2 < 2 and -2 < c - c2 < 2 for r2, c2 in others)",
        (LCA_ENDGAME,),
        "two blocks whose centres are 2 apart (sharing an edge cell) count as not shared",
    ),
    Mutant(
        "pw-predict-hits-twice",
        "engine/pw/resolve.py",
        "points[other] -= 1\n                        break",
        "points[other] -= 1",
        (PW_RESOLUTION,),
        "Predict against a partner who used the type twice scores two hits, not one",
    ),
    Mutant(
        "pw-generosity-strict",
        "engine/pw/endgame.py",
        "return totals[guest] >= totals[player] + 2",
        "return totals[guest] > totals[player] + 2",
        (PW_ENDGAME,),
        "Generosity fails when guest points are exactly player points + 2",
    ),
    Mutant(
        "photographer-refill-at-4",
        "engine/photographer/table.py",
        "if on_table > 3:",
        "if on_table > 4:",
        (PHOTO_RULES,),
        "the table is refilled (or the game ends) with 4 cards left, not 3",
    ),
    Mutant(
        "photographer-no-refill-at-3",
        "engine/photographer/table.py",
        "if on_table > 3:",
        "if on_table >= 3:",
        (PHOTO_RULES,),
        "a table of exactly 3 cards is neither refilled nor ends the game",
    ),
    # ------------------------------------------------------------------ lca
    Mutant(
        "lca-L2-first-namer-wins",
        "engine/lca/lights.py",
        "if cell not in occupied and named[cell] == 1:",
        "if cell not in occupied:",
        (LCA_LIGHTS,),
        "a cell two players name at the same priority goes to the first listed",
    ),
    Mutant(
        "lca-L3-reach-4",
        "engine/lca/lights.py",
        "REACH = 3",
        "REACH = 4",
        (LCA_LIGHTS,),
        "a light brightens cells 4 steps away",
    ),
    Mutant(
        "lca-light-points-level-4",
        "engine/lca/lights.py",
        "LIGHT_POINTS = {1: 3, 2: 2, 3: 4, 4: 2, 5: 1}",
        "LIGHT_POINTS = {1: 3, 2: 2, 3: 4, 4: 3, 5: 1}",
        (LCA_LIGHTS,),
        "a cell of brightness 4 is worth 3, not 2",
    ),
    Mutant(
        "lca-L4-block-past-the-right-edge",
        "engine/lca/cameras.py",
        "1 <= centre[1] <= studio.width - 2",
        "1 <= centre[1] <= studio.width - 1",
        ("tests/lca/test_rejections.py",),
        "a camera whose block leaves the studio on the right is accepted",
    ),
    Mutant(
        "lca-L5-option-ignored",
        "engine/lca/actions.py",
        "and not (centre_must_be_empty and centre in actions)",
        "and centre not in actions",
        (LCA_ROUNDS,),
        "diamond_center_must_be_empty=false still needs an empty centre",
    ),
    Mutant(
        "lca-line-uncapped",
        "engine/lca/actions.py",
        "return ActionPoints(diamond, min(CAP, LINE_POINTS * m), distance, m, steps)",
        "return ActionPoints(diamond, LINE_POINTS * m, distance, m, steps)",
        (LCA_ROUNDS,),
        "the line part goes past 50",
    ),
    Mutant(
        "lca-filming-camera-uncapped",
        "engine/lca/filming.py",
        "(6 if centre == self.cell else 2) * self.level",
        "(6 if centre == self.cell else 2) * self.lights",
        ("tests/lca/test_filming_example.py", LCA_LIGHTS),
        "a camera's filming points use the uncapped light count, not the light level",
    ),
    Mutant(
        "lca-L6-cap-5",
        "engine/lca/endgame.py",
        "if s.scores[cat] == best[cat] and shards < TOL_CAPACITY:",
        "if s.scores[cat] == best[cat] and shards <= TOL_CAPACITY:",
        (LCA_ENDGAME,),
        "a ToL takes a fifth shard",
    ),
    Mutant(
        "lca-L1-filming-tiebreak-dropped",
        "engine/lca/endgame.py",
        'key=lambda i: (-sum(scores[players[i]].values()), -scores[players[i]]["filming"], i),',
        "key=lambda i: (-sum(scores[players[i]].values()), i),",
        (LCA_ENDGAME,),
        "equal totals are ranked by listed order alone, not filming first",
    ),
    Mutant(
        "lca-third-ec-tie-to-the-better-ranked",
        "engine/lca/endgame.py",
        'third = min(candidates, key=lambda s: (s.scores["filming"], -s.rank))',
        'third = min(candidates, key=lambda s: (s.scores["filming"], s.rank))',
        (LCA_ENDGAME,),
        "the lowest-filming EC tie goes to the better-ranked player",
    ),
    Mutant(
        "lca-scores-of-others-before-the-end",
        "engine/lca/views.py",
        "rows = [_score_row(me, table[me])]",
        "rows = [_score_row(p, table[p]) for p in state.players]",
        ("tests/lca/test_views.py",),
        "a participant sees every player's scores before the end",
    ),
    # ------------------------------------------------------------------ pw
    Mutant(
        "pw-W6-three-swaps-needed",
        "engine/pw/resolve.py",
        "swapped = [p for p in g.players if swaps_on[p] >= 2]",
        "swapped = [p for p in g.players if swaps_on[p] > 2]",
        (PW_RESOLUTION,),
        "two Swaps on a pair do not swap it",
    ),
    Mutant(
        "pw-W8-own-repeat-counts-as-other",
        "engine/pw/resolve.py",
        "if len(submitters_of[target]) == 1:",
        "if sum(t == target for _s, t in uniques) == 1:",
        (PW_RESOLUTION,),
        "a participant's own second Unique on a target cancels their first",
    ),
    Mutant(
        "pw-W9-tie-to-the-better-ranked",
        "engine/pw/endgame.py",
        "return min(entries, key=lambda e: (e[0], -rank[e[1]]))[1]",
        "return min(entries, key=lambda e: (e[0], rank[e[1]]))[1]",
        (PW_ENDGAME,),
        "an EC tie goes to the better-ranked pair",
    ),
    Mutant(
        "pw-W4-three-uses",
        "engine/pw/validation.py",
        "over = [t for t in TYPES if after[t] > 2]",
        "over = [t for t in TYPES if after[t] > 3]",
        ("tests/pw/test_validation.py",),
        "a pair may use a type three times over the match",
    ),
    Mutant(
        "pw-ranking-player-points-ascending",
        "engine/pw/endgame.py",
        "key=lambda p: (-(totals[p] + totals[g.guest_of[p]]), -totals[p], index[p]),",
        "key=lambda p: (-(totals[p] + totals[g.guest_of[p]]), totals[p], index[p]),",
        (PW_ENDGAME,),
        "equal pair scores are ranked by the lower player points first",
    ),
    Mutant(
        "pw-public-award-tells-the-score",
        "engine/pw/views.py",
        'entry["reason"] = PUBLIC_REASONS.get(award["kind"], award["reason"])',
        'entry["reason"] = award["reason"]',
        (PW_ENDGAME,),
        "a public award names the score behind it ('highest guest')",
    ),
    # ------------------------------------------------------------------ photographer
    Mutant(
        "photographer-P9-dense-ranks",
        "engine/photographer/scoring.py",
        "rank = 1 + sum(1 for other in rows if other[2] > total)",
        "rank = 1 + len({other[2] for other in rows if other[2] > total})",
        (PHOTO_RULES,),
        "after a shared rank the next rank does not skip (1, 1, 2)",
    ),
    Mutant(
        "photographer-P7-ender-first",
        "engine/photographer/turn.py",
        "g.end_queue = players[seat + 1 :] + players[: seat + 1]",
        "g.end_queue = players[seat:] + players[:seat]",
        (PHOTO_RULES,),
        "the end phase starts with the player who ended the game",
    ),
    Mutant(
        "photographer-step-of-4-continues",
        "engine/photographer/film.py",
        "if step == 0 or abs(step) > 3:",
        "if step == 0 or abs(step) > 4:",
        (PHOTO_RULES,),
        "a card 4 from the row's last face-up card continues it",
    ),
    Mutant(
        "photographer-good-shot-one-late",
        "engine/photographer/film.py",
        "len(seq) + 1 >= g.shot_length",
        "len(seq) >= g.shot_length",
        (PHOTO_RULES,),
        "the successful shot needs one face-up card more than N",
    ),
    Mutant(
        "photographer-host-sight-for-everyone",
        "engine/photographer/views.py",
        '"film": film_view(g, player, knows_blurred=host or player == viewer),',
        '"film": film_view(g, player, knows_blurred=host or viewer is not None),',
        ("tests/photographer/test_views.py",),
        "a player sees the values of other players' blurred shots",
    ),
    # ------------------------------------------------------------------ store
    Mutant(
        "store-failed-transaction-leaves-rows-pending",
        "ledger/event_log.py",
        "        if unwritten:\n            self._pending.clear()\n",
        "        if unwritten:\n            pass\n",
        (f"{STORE}::test_a_transaction_of_several_appends_is_all_or_nothing",),
        "the rows of a failed transaction are written by the next one",
    ),
    Mutant(
        "store-rows-after-inclusive",
        "ledger/store.py",
        'sql = f"SELECT {columns} FROM events WHERE match_id = ? AND seq > ?"',
        'sql = f"SELECT {columns} FROM events WHERE match_id = ? AND seq >= ?"',
        (f"{STORE}::test_reads_take_the_seqs_after_and_up_to_the_ones_given",),
        "reads 'after' a seq include that seq",
    ),
    Mutant(
        "store-triggers-repaired-only-when-both-missing",
        "ledger/sqlite_file.py",
        "        for name in contents.missing_triggers:",
        "        for name in contents.missing_triggers if len(contents.missing_triggers) == len(TRIGGERS) else ():",
        (
            "tests/reliability/test_crash.py::test_a_crash_between_creating_the_table_and_its_triggers_is_repaired_on_open",
        ),
        "a file missing one append-only trigger is not repaired on open",
    ),
    Mutant(
        # docs/guarantees.md (crash consistency): without its transaction a command can
        # be half-written by a kill, and the crash test must say so
        "store-transaction-a-no-op",
        "ledger/transactions.py",
        _TRANSACTION,
        _NO_TRANSACTION,
        (
            "tests/reliability/test_crash.py::test_sigkill_at_random_moments_leaves_a_whole_command_prefix",
            f"{STORE}::test_a_transaction_of_several_appends_is_all_or_nothing",
        ),
        "a command's events are written one by one, each committed alone",
    ),
    # ------------------------------------------------------------------ verify
    Mutant(
        "verify-link-not-checked",
        "ledger/verify.py",
        "hashed = min(linked, _first_mismatch(recomputed, hashes[:placed]))",
        "hashed = _first_mismatch(recomputed, hashes[:placed])",
        (TAMPER,),
        "a row whose prev_hash does not link to the previous event verifies",
    ),
    Mutant(
        "verify-gap-named-by-the-next-seq",
        "ledger/verify.py",
        'return Finding(match_id, expected, f"event {expected} is missing (next stored seq is {row.seq})")',
        'return Finding(match_id, row.seq, f"event {expected} is missing (next stored seq is {row.seq})")',
        (TAMPER,),
        "a deleted event is reported at the seq after it",
    ),
    Mutant(
        "verify-head-compared-with-the-last-event",
        "ledger/verify.py",
        "or not hashes[head_seq - 1].startswith(head_hash):",
        "or not hashes[-1].startswith(head_hash):",
        (TAMPER,),
        "a published head is compared with the last event, not the one at its seq",
    ),
    # ------------------------------------------------------------------ the command line
    Mutant(
        "head-prefix-not-accepted",
        "ledger/verify.py",
        "or not hashes[head_seq - 1].startswith(head_hash):",
        "or hashes[head_seq - 1] != head_hash:",
        (CLI_HEADS,),
        "a published head cut to a prefix, as log prints it, is reported as a rewritten log",
    ),
    Mutant(
        "import-head-not-checked",
        "projections/verification.py",
        "    if unpinned:",
        "    if False:",
        (CLI_HEADS,),
        "import --head imports an export whose head is not the one pinned",
    ),
    Mutant(
        "no-color-ignored",
        "commands/colour.py",
        "    if NO_COLOR in os.environ:",
        "    if os.environ.get(NO_COLOR):",
        ("tests/cli/test_colour.py",),
        "an empty NO_COLOR leaves colour on at a terminal",
    ),
    Mutant(
        "completion-opens-for-writing",
        "commands/completion.py",
        'application = Session(db, actor="host", log_json=False).application()',
        'application = Session(db, actor="host", log_json=False).application(create=True)',
        ("tests/cli/test_completion.py",),
        "pressing Tab creates a database where there was none",
    ),
    # the service (commands/service/)
    Mutant(
        "access-log-keeps-tokens",
        "commands/service/guard.py",
        '        path = _TOKEN_SHAPED.sub("[token]", path)',
        "        pass",
        (f"{SERVICE_API}::test_the_access_log_is_structured_and_never_holds_a_token",),
        "a token pasted into a path where no token goes is written to the access log",
    ),
    Mutant(
        "log-lines-raw-unicode",
        "commands/logs.py",
        '        return line.decode("ascii")',
        '        return line.decode("ascii")\n    return line.decode("utf-8")',
        (f"{SERVICE_API}::test_the_access_log_is_structured_and_never_holds_a_token",),
        "a hostile path's terminal control characters reach the operator's terminal raw",
    ),
    Mutant(
        "console-log-raw",
        "commands/logs.py",
        "            processors += [printable_values, structlog.dev.ConsoleRenderer(colors=False)]",
        "            processors += [structlog.dev.ConsoleRenderer(colors=False)]",
        (f"{SERVICE_API}::test_the_console_access_log_writes_a_hostile_paths_control_characters_escaped",),
        "a hostile path's terminal control sequence is written raw to the operator's console",
    ),
    Mutant(
        "access-log-keeps-links",
        "commands/service/guard.py",
        'path = path[:3] + "[token]" + ("" if end < 0 else path[end:])',
        "pass",
        (f"{SERVICE_API}::test_the_access_log_is_structured_and_never_holds_a_token",),
        "a participant's link cut short (not shaped like a whole token) is written to the access log",
    ),
    Mutant(
        "lookups-kept-past-the-turn",
        "commands/service/reads.py",
        "        return self.since is not None and self._looked_at >= self.since",
        "        return self.since is not None",
        (
            f"{SERVICE_API}::test_revoking_a_link_closes_it_at_once",
            "tests/service/test_lookups_kept.py::test_a_request_that_arrived_after_a_revocation_is_refused_though_a_look_was_made_before",
        ),
        "a token revoked by the host keeps opening its match while the server is busy",
    ),
    Mutant(
        "grants-kept-past-a-commit",
        "commands/service/reads.py",
        "            self._grants.clear()  # a revocation is seen by the very next request, pushed or not",
        "            pass",
        (f"{SERVICE_API}::test_revoking_a_link_closes_it_at_once",),
        "a token revoked by the host keeps opening its match until the server restarts",
    ),
    Mutant(
        "link-not-checked-when-written",
        "projections/application/access.py",
        "        capability = self.capability(link)  # None once revoked",
        "        return True",
        ("tests/service/test_writer.py::test_a_link_is_checked_again_as_its_submission_is_written",),
        "a submission whose body came after the host revoked its link is recorded",
    ),
    Mutant(
        "edited-rows-served",
        "projections/application/queries.py",
        "        reader.forget(match_id)\n        cursor = reader.cursor(match_id)",
        "        cursor = reader.cursor(match_id)",
        ("tests/service/test_hostile_clients.py::test_a_row_edited_while_serving_is_refused_at_the_next_request",),
        "a row edited behind the ledger's back while it serves is shown as if it were the log",
    ),
    Mutant(
        "made-up-tokens-kept",
        "commands/service/reads.py",
        "        if not well_formed(token):\n            return None  # nothing kept of it: a made-up token may be of any size",
        "        if False:\n            return None",
        ("tests/service/test_lookups_kept.py::test_a_token_that_is_not_shaped_like_one_is_neither_looked_up_nor_kept",),
        "a client's made-up megabyte tokens are kept, 4,096 of them",
    ),
    Mutant(
        "log-keeps-delete",
        "commands/logs.py",
        '    if line is not None and line.isascii() and b"\\x7f" not in line:  # msgspec leaves DEL as it is',
        "    if line is not None and line.isascii():",
        (
            "tests/service/test_hostile_clients.py::test_a_delete_character_in_a_path_is_written_escaped_in_the_json_log",
        ),
        "a DEL character from a hostile path reaches the log raw",
    ),
    Mutant(
        "seq-in-any-digits",
        "commands/service/http.py",
        "    return text.isascii() and text.isdigit() and len(text) <= 18",
        "    return text.isdigit() and len(text) <= 18",
        (
            "tests/service/test_hostile_clients.py::test_a_seq_written_in_other_digits_is_a_clear_400_and_the_log_stays_json_lines",
        ),
        "?at=² is a 500 and a raw traceback in the log",
    ),
    Mutant(
        "guard-lets-errors-out",
        "commands/service/guard.py",
        "            failure = exc  # answered (500) already: logged below as data, not by the server as raw text",
        "            raise",
        (
            "tests/service/test_guard.py::test_an_error_after_the_500_was_sent_is_one_more_record_not_the_servers_raw_text",
        ),
        "an unexpected error reaches stderr as the server's raw multi-line text",
    ),
    Mutant(
        "postgres-never-reconnects",
        "ledger/postgres_store.py",
        "        if self._depth == 0 and self.owns_connection and (self.conn.broken or self.conn.closed):",
        "        if False:",
        (
            "tests/service/test_postgres.py::test_serve_answers_again_once_its_connections_were_ended_and_says_503_meanwhile",
        ),
        "after a PostgreSQL restart, serve answers nothing but errors until it is restarted itself",
    ),
    Mutant(
        "link-not-checked-under-the-lock",
        "projections/application/access.py",
        "            raise LinkClosed()",
        "            pass",
        (
            "tests/service/test_postgres.py::test_a_revocation_made_while_a_submission_waits_for_the_matchs_lock_stops_it",
        ),
        "on PostgreSQL a submission that waited for the match's lock is recorded after the host's revoke returned",
    ),
    Mutant(
        "form-fields-cut-short",
        "commands/service/http.py",
        "        if too_long:  # cut short, it would record something else than what was sent",
        "        if False:",
        ("tests/service/test_hostile_clients.py::test_a_form_field_longer_than_its_limit_is_refused_not_cut_short",),
        "a form field past its limit is read as far as the limit (here: an empty submission, or one cut short)",
    ),
    Mutant(
        "submissions-unbounded",
        "projections/application/access.py",
        "            if made >= SUBMISSIONS_PER_ROUND:",
        "            if False:",
        ("tests/service/test_hostile_clients.py::test_one_link_makes_a_bounded_number_of_submissions_in_a_round",),
        "one link appends to the match's log without bound",
    ),
    Mutant(
        "stream-ticks-on-every-event",
        "commands/service/live.py",
        "                if message and message != sent:",
        "                if message or True:",
        (
            f"{SERVICE_API}::test_the_public_stream_sends_a_view_only_when_the_public_view_changes",
            "tests/trust/privacy/test_http_noninterference.py::test_the_live_streams_send_the_same_messages_only_when_the_viewers_page_changes",
        ),
        "a page's stream ticks when an event it may not see lands, telling its timing",
    ),
    Mutant(
        "token-opens-other-matches",
        "commands/service/http.py",
        "if capability is None or capability.match_id != match_id:",
        "if capability is None:",
        (f"{SERVICE_API}::test_a_token_opens_only_its_match_and_role_and_says_nothing_of_what_exists",),
        "a participant's token reads and submits in another match",
    ),
    Mutant(
        "revoked-token-still-opens",
        "projections/application/access.py",
        "return found if found is not None and found.active else None",
        "return found",
        (f"{SERVICE_API}::test_revoking_a_link_closes_it_at_once",),
        "a revoked link keeps working",
    ),
    Mutant(
        "submission-recorded-as-host",
        "projections/application/access.py",
        "recorded = self._writes.execute(match_id, submission.cmd, actor=participant, now=now)",
        "recorded = self._writes.execute(match_id, submission.cmd, now=now)",
        (f"{SERVICE_API}::test_a_participant_records_their_own_submission_and_verify_proves_the_receipt",),
        "a participant's own submission is recorded as the host's",
    ),
    Mutant(
        "writer-gives-up-at-first-conflict",
        "projections/application/access.py",
        "continue  # the kept states were dropped: decide everything again",
        "break",
        (
            "tests/service/test_writer.py::test_a_submission_that_loses_the_race_for_the_log_is_decided_again_and_recorded_once",
        ),
        "a submission that loses one race for the log is refused instead of decided again",
    ),
    Mutant(
        "participant-page-shared",
        "commands/service/http.py",
        '("participant-page", capability.token_hash)',
        '("participant-page", match_id)',
        ("tests/service/test_whole_match.py",),
        "one participant's page, kept, is shown to another participant of the match",
    ),
    Mutant(
        "revoked-link-page-follows-on",
        "commands/service/live.py",
        "                if await refusal() is None:",
        "                if True:",
        (f"{SERVICE_API}::test_a_revoked_links_open_stream_ends_before_it_sends_anything_new",),
        "a page left open on a revoked link goes on receiving the participant's view",
    ),
    # ------------------------------------------------------------------ PostgreSQL
    Mutant(
        "postgres-match-not-locked",
        "ledger/postgres_store.py",
        """        self.db.run("SELECT pg_advisory_xact_lock(%s, hashtext(current_schema() || '.' || %s))", (LOCK_SPACE, match_id))""",
        "        pass",
        (
            f"{POSTGRES}/test_multi_host.py::test_a_slow_reader_never_blocks_a_writer_and_a_writer_blocks_only_its_own_match",
        ),
        "two writers of one match both read the head, and the later one fails at its commit instead of waiting",
    ),
    Mutant(
        "postgres-truncate-allowed",
        "ledger/postgres_schema.py",
        "CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events\n",
        "CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON matchledger_schema\n",
        (f"{POSTGRES}/test_schema.py::test_update_delete_and_truncate_fail_from_any_client",),
        "TRUNCATE empties the append-only log",
    ),
    Mutant(
        "postgres-schema-version-unchecked",
        "ledger/postgres_database.py",
        "        if version is not None and version > latest:",
        "        if False:",
        (f"{POSTGRES}/test_schema.py",),
        "tables of another layout are read as if they were this one's",
    ),
    Mutant(
        "postgres-password-printed",
        "ledger/postgres_urls.py",
        '        netloc = parts.netloc.rpartition("@")[2]\n',
        "        netloc = parts.netloc\n",
        (f"{POSTGRES}/test_errors.py",),
        "an error message shows the password of the URL",
    ),
    Mutant(
        "postgres-connection-left-open",
        "commands/session.py",
        "            application.command_ended()",
        "            pass",
        (f"{POSTGRES}/test_connections.py::test_a_command_closes_its_connection_when_it_ends",),
        "every command run in one process keeps its server connection until the collector runs",
    ),
]

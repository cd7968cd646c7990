"""Events round-trip through the one codec; old versions still decode (upcasters)."""

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st
from matchledger.ledger import codec
from matchledger.ledger.errors import CorruptLog
from matchledger.ledger.events import (
    EVENT_TYPES,
    MatchCreated,
    NoteAdded,
    RoundClosed,
    RuleAmended,
    SubmissionRecorded,
)

names = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8)
json_scalars = st.one_of(st.integers(-10**6, 10**6), st.booleans(), names)

events = st.one_of(
    st.builds(MatchCreated, game=names, players=st.lists(names, min_size=1, max_size=5),
              options=st.dictionaries(names, json_scalars, max_size=3)),
    st.builds(SubmissionRecorded, participant=names, round=st.integers(1, 3), tokens=st.lists(names, max_size=6)),
    st.builds(RoundClosed, round=st.integers(1, 3), public=st.dictionaries(names, json_scalars, max_size=3),
              private=st.dictionaries(names, st.dictionaries(names, json_scalars, max_size=2), max_size=3)),
    st.builds(RuleAmended, option=names, value=json_scalars, from_round=st.integers(1, 3), reason=names),
    st.builds(NoteAdded, text=st.text(max_size=40)),
)


@given(events)
def test_encode_decode_round_trip_is_identity_and_bytes_are_stable(event):
    body = codec.encode(event)
    decoded = codec.decode_event(body)
    assert decoded == event
    assert codec.encode(decoded) == body


def test_dict_keys_are_encoded_in_sorted_order_whatever_the_insertion_order():
    a = RoundClosed(round=1, public={"b": 1, "a": 2})
    b = RoundClosed(round=1, public={"a": 2, "b": 1})
    assert codec.encode(a) == codec.encode(b)
    assert b'"public":{"a":2,"b":1}' in codec.encode(a)


def test_body_carries_the_tag_and_version():
    body = msgspec.json.decode(codec.encode(SubmissionRecorded(participant="ann", round=2, tokens=["B2"])))
    assert body["type"] == "SubmissionRecorded"
    assert body["v"] == 2


def test_stored_v1_submission_decodes_through_its_upcaster():
    # Bytes as a v1 writer stored them: `player`, and tokens as one string.
    stored_v1 = b'{"type":"SubmissionRecorded","v":1,"player":"alice","round":1,"tokens":"B2 C3 D4 E5 F6"}'
    event = codec.decode_event(stored_v1)
    assert event == SubmissionRecorded(participant="alice", round=1, tokens=["B2", "C3", "D4", "E5", "F6"])
    assert event.v == 2


def test_v1_without_version_field_is_upcast_too():
    event = codec.decode_event(b'{"type":"SubmissionRecorded","player":"bob","round":3,"tokens":"A1"}')
    assert event.participant == "bob" and event.tokens == ["A1"]


@pytest.mark.parametrize(
    "body, fragment",
    [
        (b"{not json", "not valid JSON"),
        (b'{"type":"NoSuchEvent"}', "unknown event type 'NoSuchEvent'"),
        (b'{"type":"NoteAdded","text":5}', "does not fit NoteAdded"),
        (b"[1,2]", "unknown event type None"),
    ],
)
def test_bad_bodies_raise_corrupt_log_naming_the_problem(body, fragment):
    with pytest.raises(CorruptLog, match=fragment):
        codec.decode_event(body)


def test_every_event_type_is_in_the_union():
    assert set(EVENT_TYPES) >= {"MatchCreated", "SubmissionRecorded", "RoundClosed", "RuleAmended",
                                "SubmissionVoided", "SubmissionCorrected", "NoteAdded", "ContractRecorded"}


any_text = st.text(max_size=30)  # quotes, backslashes, control characters, any script


@given(any_text, any_text, any_text, any_text, any_text, st.integers(1, 10**9), events)
def test_batch_hasher_hashes_exactly_the_canonical_bytes(match_id, actor, recorded_at, kind, prev_hash, seq, event):
    from matchledger.ledger.codec import BatchHasher, chain_hash

    body = codec.encode(event)
    reference = chain_hash(prev_hash, match_id=match_id, seq=seq, recorded_at=recorded_at, actor=actor, kind=kind, body=body)
    hasher = BatchHasher(match_id=match_id, recorded_at=recorded_at, actor=actor)
    assert hasher(prev_hash, seq, kind, body) == reference

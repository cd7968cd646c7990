"""Events round-trip through the one codec; old versions still decode (upcasters); the
chain hash is exactly the bytes the contract names."""

import hashlib
import json

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
json_scalars = st.one_of(st.integers(-(10**6), 10**6), st.booleans(), names)

events = st.one_of(
    st.builds(
        MatchCreated,
        game=names,
        players=st.lists(names, min_size=1, max_size=5),
        options=st.dictionaries(names, json_scalars, max_size=3),
    ),
    st.builds(SubmissionRecorded, participant=names, round=st.integers(1, 3), tokens=st.lists(names, max_size=6)),
    st.builds(
        RoundClosed,
        round=st.integers(1, 3),
        public=st.dictionaries(names, json_scalars, max_size=3),
        private=st.dictionaries(names, st.dictionaries(names, json_scalars, max_size=2), max_size=3),
    ),
    st.builds(RuleAmended, option=names, value=json_scalars, from_round=st.integers(1, 3), reason=names),
    st.builds(NoteAdded, text=st.text(max_size=40)),
)


@given(events)
@pytest.mark.guarantee("log.old-versions-decode")
def test_encode_decode_round_trip_is_identity_and_bytes_are_stable(event):
    body = codec.encode(event)
    decoded = codec.decode_event(body)
    assert decoded == event
    assert codec.encode(decoded) == body


@pytest.mark.guarantee("log.old-versions-decode")
def test_dict_keys_are_encoded_in_sorted_order_whatever_the_insertion_order():
    a = RoundClosed(round=1, public={"b": 1, "a": 2})
    b = RoundClosed(round=1, public={"a": 2, "b": 1})
    assert codec.encode(a) == codec.encode(b)
    assert b'"public":{"a":2,"b":1}' in codec.encode(a)


def test_body_carries_the_tag_and_version():
    body = msgspec.json.decode(codec.encode(SubmissionRecorded(participant="ann", round=2, tokens=["B2"])))
    assert body["type"] == "SubmissionRecorded"
    assert body["v"] == 2


@pytest.mark.guarantee("log.old-versions-decode")
def test_stored_v1_submission_decodes_through_its_upcaster():
    # Bytes as a v1 writer stored them: `player`, and tokens as one string.
    stored_v1 = b'{"type":"SubmissionRecorded","v":1,"player":"alice","round":1,"tokens":"B2 C3 D4 E5 F6"}'
    event = codec.decode_event(stored_v1)
    assert event == SubmissionRecorded(participant="alice", round=1, tokens=["B2", "C3", "D4", "E5", "F6"])
    assert event.v == 2


@pytest.mark.guarantee("log.old-versions-decode")
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
@pytest.mark.guarantee("input.decoder-fuzz")
def test_bad_bodies_raise_corrupt_log_naming_the_problem(body, fragment):
    with pytest.raises(CorruptLog, match=fragment):
        codec.decode_event(body)


def test_every_event_type_is_in_the_union():
    assert set(EVENT_TYPES) >= {
        "MatchCreated",
        "SubmissionRecorded",
        "RoundClosed",
        "RuleAmended",
        "SubmissionVoided",
        "SubmissionCorrected",
        "NoteAdded",
        "ContractRecorded",
    }


class ReferenceEnvelope(msgspec.Struct):
    """The hashed envelope as the contract states it, for an encoder of its own to write:
    fields in sorted order, the body embedded as stored."""

    actor: str
    body: msgspec.Raw
    kind: str
    match_id: str
    prev_hash: str
    recorded_at: str
    seq: int


_reference_encoder = msgspec.json.Encoder()


def reference_hash(
    prev_hash: str, *, match_id: str, seq: int, recorded_at: str, actor: str, kind: str, body: bytes
) -> str:
    """``sha256(prev_hash ‖ canonical JSON of the envelope without its hash)``, built
    without ``codec``: the oracle for ``codec.envelope_hash``."""
    fields = ReferenceEnvelope(actor, msgspec.Raw(body), kind, match_id, prev_hash, recorded_at, seq)
    return hashlib.sha256(prev_hash.encode("utf-8") + _reference_encoder.encode(fields)).hexdigest()


def test_the_reference_envelope_lists_its_fields_in_sorted_order():
    assert list(ReferenceEnvelope.__struct_fields__) == sorted(ReferenceEnvelope.__struct_fields__)


any_text = st.text(max_size=30)  # quotes, backslashes, control characters, any script


@given(any_text, any_text, any_text, any_text, any_text, st.integers(-(10**9), 10**18), events)
@pytest.mark.guarantee("log.hash-chain")
def test_envelope_hash_hashes_exactly_the_canonical_bytes(match_id, actor, recorded_at, kind, prev_hash, seq, event):
    body = codec.encode(event)
    reference = reference_hash(
        prev_hash, match_id=match_id, seq=seq, recorded_at=recorded_at, actor=actor, kind=kind, body=body
    )
    encode = codec.encode
    assert (
        codec.envelope_hash(encode(actor), body, kind, encode(match_id), prev_hash, encode(recorded_at), seq)
        == reference
    )


@given(any_text)
def test_strings_are_written_as_json_dumps_writes_them_utf8_not_escaped(text):
    # The contract in words an auditor can check with the standard library alone.
    assert codec.encode(text) == json.dumps(text, ensure_ascii=False).encode("utf-8")


@pytest.mark.guarantee("log.hash-chain")
def test_a_hash_recorded_before_the_hashers_were_merged_is_unchanged():
    body = codec.encode(RoundClosed(round=2, public={"é": "ü", "b": [1, 2]}, private={"ann": {"x": '"q"\\'}}))
    digest = codec.envelope_hash(
        codec.encode('Zoë "host"'),
        body,
        "RoundClosed",
        codec.encode("m-1"),
        "ab" * 32,
        codec.encode("2026-01-01T00:00:00.000000Z"),
        7,
    )
    assert digest == "ae9236f0c38982760aec88382cb523d0342cb59d336f508f79e8749fb9291ccb"

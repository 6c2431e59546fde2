"""The fuzz targets: every decoder that reads bytes from the network or the disk.

A target takes one input (bytes) and feeds it to a decoder the way the node does. It swallows
the errors the decoder documents for bad input and lets anything else out: a crash. Where the
format is canonical, a decoded value must encode back to the very bytes it came from (and where
it is not, decoding what was encoded must give the same value). Memory is bounded by the run
(`bench/fuzz.py` runs libFuzzer with `-rss_limit_mb`; the CI test measures the peak with
tracemalloc).

Targets (the name is the corpus folder, tests/fuzz/corpus/NAME):

    framing        protocol/framing.py       Framer: length-prefixed frames, fed in pieces
    codec          protocol/codec.py         decode: canonical msgpack, the wire subset
    handshake      protocol/channel.py       a responder and an initiator fed a peer's bytes
    records        protocol/channel.py       an open channel fed any plaintext its peer encrypts
    envelope       protocol/envelope.py      decode_envelope: signed envelopes
    messages       protocol/messages.py      decode_message: every message and signed payload
    deck_messages  protocol/mental/messages  a deck message's bytes (table.deck_message)
    deck_receive   protocol/mental/state.py  a parsed deck message delivered to an observer
                                             at the keys, shuffle and reveal steps (proofs)
    proofs         protocol/mental/proofs.py proofs and points from bytes, verified against
                                             a fixed statement
    tableinfo      node/tableinfo.py         decode_txt: the mDNS TXT record
    journal        node/journal.py           Journal.open + records over a file of any bytes
    game_journal   node/store.py             GameJournal over well-framed records of any payload
    transcript     protocol/transcript.py    Transcript.load, then the audit of what loaded
"""

from __future__ import annotations

import atexit
import copy
import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from p2p_durak.node.journal import Journal, JournalCorrupt
from p2p_durak.node.replay import audit_file
from p2p_durak.node.store import GameJournal, GameJournalCorrupt
from p2p_durak.node.tableinfo import TableAdError, decode_txt, encode_txt
from p2p_durak.protocol import codec, messages
from p2p_durak.protocol.channel import (
    AcceptHandshake,
    ChannelOpened,
    HandshakeRequest,
    HandshakeResponse,
    PeerConnection,
    Role,
    StartHandshake,
)
from p2p_durak.protocol.envelope import ENVELOPE_MESSAGES, decode_envelope
from p2p_durak.protocol.errors import ProtocolError
from p2p_durak.protocol.framing import ConnectionClosed, Frame, Framer, NeedData
from p2p_durak.protocol.identity import Identity
from p2p_durak.protocol.mental import DeckError, KeysOp, RevealOp, ShuffleOp
from p2p_durak.protocol.mental import group as g
from p2p_durak.protocol.mental.deck import DeckParty
from p2p_durak.protocol.mental.events import Send
from p2p_durak.protocol.mental.proofs import OneOfProof, Proof, verify_key, verify_one_of
from p2p_durak.protocol.mental.shuffle import ShuffleProof
from p2p_durak.protocol.mental.state import DeckState
from p2p_durak.protocol.mental.transcript import ProofContext
from p2p_durak.protocol.table import deck_message
from p2p_durak.protocol.transcript import Transcript, TranscriptError

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "fuzz" / "corpus"
GOLDEN = ROOT / "tests" / "protocol" / "golden"
MAX_INPUT = 1 << 16  # libFuzzer's -max_len for every target


class Finding(AssertionError):
    """A target's own check failed (a value that does not re-encode, an impossible event)."""


def golden(name: str) -> bytes:
    text = (GOLDEN / f"{name}.hex").read_text(encoding="ascii")
    return bytes.fromhex("".join(line for line in text.splitlines() if not line.startswith("#")))


def golden_all(folder: Path = GOLDEN) -> list[bytes]:
    return [golden(str(p.relative_to(GOLDEN))[:-4]) for p in sorted(folder.glob("*.hex"))]


def drbg(seed: bytes) -> Callable[[int], bytes]:
    counter = 0

    def read(n: int) -> bytes:
        nonlocal counter
        counter += 1
        return hashlib.shake_256(seed + counter.to_bytes(8, "big")).digest(n)

    return read


# --- framing, codec, messages, envelopes -----------------------------------------------------

def fuzz_framing(data: bytes) -> None:
    """The input is split where its first byte says, and fed in two pieces."""
    cut = data[0] % (len(data) + 1) if data else 0
    framer = Framer()
    consumed = bytearray()
    try:
        for piece in (data[:cut], data[cut:], b""):
            framer.receive_data(piece)
            while True:
                event = framer.next_event()
                if isinstance(event, NeedData):
                    break
                if not isinstance(event, Frame):
                    return  # the end of the stream
                wire = Framer().send(event.body)
                consumed += wire
                if not bytes(data).startswith(bytes(consumed)):
                    raise Finding("a frame does not re-encode to the bytes it came from")
    except ProtocolError:
        return


def fuzz_codec(data: bytes) -> None:
    try:
        value = codec.decode(data)
    except ProtocolError:
        return
    if codec.encode(value) != data:
        raise Finding("a decoded value does not re-encode to its bytes")


ALL_MESSAGES = {**messages.HANDSHAKE_MESSAGES, **messages.SIGNED_MESSAGES,
                **messages.DIRECT_MESSAGES, **ENVELOPE_MESSAGES}


def fuzz_messages(data: bytes) -> None:
    """Every message type, signed payloads too (what an authenticated peer could sign)."""
    try:
        message = messages.decode_message(data, ALL_MESSAGES)
    except ProtocolError:
        return
    if type(message).encode(message) != data:
        raise Finding(f"a decoded {type(message).__name__} does not re-encode to its bytes")
    _fresh_encoding(message, data)


def _fresh_encoding(message: messages.Message, data: bytes) -> None:
    """Encode from the fields (not the bytes the message remembers it came from)."""
    if messages.Message.encode(message) != data:
        raise Finding(f"{type(message).__name__}'s fields encode to other bytes")


def fuzz_envelope(data: bytes) -> None:
    try:
        envelope = decode_envelope(data)
    except ProtocolError:
        return
    _fresh_encoding(envelope, data)
    _fresh_encoding(envelope.message, envelope.payload)


# --- the channel -------------------------------------------------------------------------------

ALICE = Identity.from_seed(b"fuzz-alice".ljust(32, b"_"))
BOB = Identity.from_seed(b"fuzz-bob".ljust(32, b"_"))


def _ephemeral(label: bytes) -> X25519PrivateKey:
    return X25519PrivateKey.from_private_bytes(hashlib.sha256(label).digest())


def _drain(connection: PeerConnection) -> Iterator[object]:
    while True:
        event = connection.next_event()
        if isinstance(event, NeedData | ConnectionClosed):
            return
        yield event


def fuzz_handshake(data: bytes) -> None:
    """The first byte picks the side under test: a responder reads the input as an
    initiator's first bytes; an initiator, having sent its init, reads it as the reply (and
    then, if that opened the way, a finish is answered); both then read on to the end."""
    side = data[0] % 2 if data else 0
    body = data[1:]
    me = PeerConnection(BOB if side == 0 else ALICE,
                        Role.RESPONDER if side == 0 else Role.INITIATOR,
                        ephemeral_key=_ephemeral(b"fuzz/me"))
    if side == 1:
        me.send(StartHandshake())
    me.receive_data(body)
    try:
        for event in _drain(me):
            if isinstance(event, HandshakeRequest | HandshakeResponse):
                me.send(AcceptHandshake())
            elif isinstance(event, ChannelOpened) and side == 1:
                raise Finding("an initiator reported ChannelOpened")
    except ProtocolError:
        return


@dataclass
class _OpenPair:
    sender: PeerConnection
    receiver: PeerConnection


def _open_pair() -> _OpenPair:
    initiator = PeerConnection(ALICE, Role.INITIATOR, ephemeral_key=_ephemeral(b"fuzz/i"))
    responder = PeerConnection(BOB, Role.RESPONDER, ephemeral_key=_ephemeral(b"fuzz/r"))
    responder.receive_data(initiator.send(StartHandshake()))
    assert isinstance(responder.next_event(), HandshakeRequest)
    initiator.receive_data(responder.send(AcceptHandshake()))
    assert isinstance(initiator.next_event(), HandshakeResponse)
    responder.receive_data(initiator.send(AcceptHandshake()))
    assert isinstance(responder.next_event(), ChannelOpened)
    return _OpenPair(initiator, responder)


_pair: _OpenPair | None = None


def fuzz_records(data: bytes) -> None:
    """An authenticated peer sends the input as a frame's plaintext (it holds the keys, so
    the AEAD lets anything through): only `ProtocolError`s may come out of the reader, and
    a message it accepts must be the one whose canonical bytes were sent."""
    global _pair
    if _pair is None:
        _pair = _open_pair()
    pair = _pair
    direction = pair.sender._send  # the peer's own keys: it may encrypt whatever it likes
    assert direction is not None
    if len(data) > pair.sender._max_plaintext:
        return
    ciphertext = direction.aead.encrypt(direction.nonce(), data, None)
    direction.counter += 1
    pair.receiver.receive_data(Framer().send(ciphertext))
    try:
        for event in _drain(pair.receiver):
            if not isinstance(event, messages.Message):
                raise Finding(f"an open channel returned {event!r}")
            _fresh_encoding(event, data)
    except ProtocolError:
        _pair = None  # the channel is over: the next input gets a fresh one


# --- the mental-poker deck ---------------------------------------------------------------------

def fuzz_deck_messages(data: bytes) -> None:
    try:
        message = deck_message(data)
    except (DeckError, ProtocolError, ValueError):
        return
    if codec.encode(message.to_wire()) != data:
        raise Finding(f"a decoded {type(message).__name__} does not re-encode to its bytes")


GAME_ID = b"fuzz-game"
N_SEATS = 2
N_CARDS = 12


@cache
def _checkpoints() -> tuple[DeckState, ...]:
    """An observer of a two-seat deck of 12 cards waiting for a message at each step: the
    keys step (commitments due), the shuffle (seat 0's due) and the reveal of slot 0."""
    parties = [DeckParty(GAME_ID, s, N_SEATS, N_CARDS, rng=drbg(b"fuzz-deck" + bytes([s])))
               for s in range(N_SEATS)]
    observer = DeckState(GAME_ID, N_SEATS, N_CARDS)
    saved: list[DeckState] = []

    def run(op: object) -> None:
        queue = []
        for party in parties:
            queue += [e.message for e in party.begin(op) if isinstance(e, Send)]  # type: ignore[arg-type]
        observer.begin(op)  # type: ignore[arg-type]
        saved.append(copy.deepcopy(observer))
        while queue:
            message = queue.pop(0)
            for party in parties:
                if party.seat != message.seat:
                    queue += [e.message for e in party.receive(message) if isinstance(e, Send)]
            observer.receive(message)

    run(KeysOp("keys"))
    run(ShuffleOp("shuffle", tuple(range(N_CARDS))))
    run(RevealOp("reveal", (0,)))
    return tuple(saved)


def fuzz_deck_receive(data: bytes) -> None:
    """The first byte picks the step; the rest is a deck message's bytes, delivered to an
    observer waiting at that step: proofs, commitments and keys are all checked there."""
    if not data:
        return
    states = _checkpoints()
    state = copy.deepcopy(states[data[0] % len(states)])
    try:
        message = deck_message(data[1:])
        state.receive(message)
    except (DeckError, ProtocolError, ValueError):
        return


def fuzz_proofs(data: bytes) -> None:
    """Scalars, points and proofs from bytes: only `ValueError` for what does not decode,
    and a false proof never verifies (the statement here has no valid proof we know of)."""
    kind = data[0] % 4 if data else 0
    body = data[1:]
    try:
        if kind == 0:
            proof = Proof.from_bytes(body[:64])
            key = g.decode_point(body[64:96]) if len(body) >= 96 else g.base_mul(5)
            if proof.to_bytes() != body[:64]:
                raise Finding("a proof does not re-encode to its bytes")
            if verify_key(_context(), key, proof) and key == g.base_mul(5):
                raise Finding("a forged Schnorr proof verified")
        elif kind == 1:
            branches = 1 + (body[0] % 4 if body else 0)
            one_of = OneOfProof.from_bytes(body[1:1 + 64 * branches], branches)
            if one_of.to_bytes() != body[1:1 + 64 * branches]:
                raise Finding("a one-of proof does not re-encode to its bytes")
            # x = 3 for pk = 3·G, so x·base = 21·G, which no target is: nothing can verify
            if verify_one_of(_context(), g.base_mul(3), g.base_mul(7),
                             tuple(g.base_mul(k) for k in range(2, 2 + branches)), one_of):
                raise Finding("a one-of proof of a false statement verified")
        elif kind == 2:
            n = 1 + (body[0] % 8 if body else 0)
            shuffle_proof = ShuffleProof.from_bytes(body[1:], n)
            if shuffle_proof.to_bytes() != body[1:]:
                raise Finding("a shuffle proof does not re-encode to its bytes")
        else:
            point = g.decode_point(body)
            if point != body:
                raise Finding("a point does not decode to its own bytes")
            g.mul(3, point)
    except ValueError:
        return


def _context() -> ProofContext:
    return ProofContext(GAME_ID, "keys", 0)


# --- node: the TXT record, the journal ---------------------------------------------------------

def fuzz_tableinfo(data: bytes) -> None:
    """Not canonical (unknown keys are skipped, any order): what decodes must decode the
    same after encoding."""
    try:
        ad = decode_txt(data, port=9000)
    except TableAdError:
        return
    try:
        again = decode_txt(encode_txt(ad), port=9000)
    except TableAdError as error:
        raise Finding(f"a decoded advertisement does not encode: {error}") from error
    if again != ad:
        raise Finding("a decoded advertisement changes when encoded and decoded again")


_scratch: Path | None = None


def _scratch_dir() -> Path:
    global _scratch
    if _scratch is None:
        base = "/dev/shm" if os.path.isdir("/dev/shm") else None
        _scratch = Path(tempfile.mkdtemp(prefix="durak-fuzz-", dir=base))
        atexit.register(shutil.rmtree, _scratch, True)
    return _scratch


def fuzz_journal(data: bytes) -> None:
    """A journal file holding the input: open recovers or refuses it (`JournalCorrupt`),
    and what it keeps reads back."""
    path = _scratch_dir() / "fuzz.journal"
    path.write_bytes(data)
    try:
        journal = Journal.open(path)
    except JournalCorrupt:
        return
    try:
        records = list(journal.records())
        if journal.size > len(data) + 20 * (len(records) + 1):
            raise Finding("open grew the file beyond a closing mark")
    finally:
        journal.close()


def _pieces(data: bytes) -> Iterator[bytes]:
    """Records from one input: each a 2-byte big-endian length, then that many bytes."""
    at = 0
    while at + 2 <= len(data):
        size = int.from_bytes(data[at:at + 2], "big")
        yield data[at + 2:at + 2 + size]
        at += 2 + size


def _framed(records: list[bytes]) -> bytes:
    return b"".join(len(r).to_bytes(2, "big") + r for r in records)


def fuzz_game_journal(data: bytes) -> None:
    """A game's journal whose records are well framed (the CRCs hold) but carry the input's
    payloads (`_pieces`): what a buggy writer, or damage a CRC missed, leaves. Only
    `GameJournalCorrupt` may come out of reading it back."""
    folder = _scratch_dir() / "game"
    folder.mkdir(exist_ok=True)
    path = folder / "party-0.journal"
    path.unlink(missing_ok=True)
    with Journal.open(path) as writer:
        for piece in _pieces(data):
            writer.append(piece, sync=False)
    try:
        journal = GameJournal(folder, 0)
    except GameJournalCorrupt:
        return
    try:
        journal.resumable()
        journal.series_games()
        journal.made()
        journal.signed_entry()
        journal.is_finished  # noqa: B018 (a property that reads the records)
        journal.transcript(b"\x00")
    except GameJournalCorrupt:
        return
    finally:
        journal.close()


def fuzz_transcript(data: bytes) -> None:
    """A transcript file: loads or `TranscriptError`; one that loads saves to the same bytes,
    and its audit (every signature, hash link, proof and move) ends in a report or an
    `AuditError`/`TranscriptError`."""
    try:
        transcript = Transcript.load(data)
    except TranscriptError:
        return
    if transcript.save() != data:
        raise Finding("a loaded transcript does not save to its bytes")
    verdict = audit_file(data)  # the `durak audit` command: a verdict, never an exception
    if not verdict.text:
        raise Finding("an audit verdict says nothing")


TARGETS: dict[str, Callable[[bytes], None]] = {
    "framing": fuzz_framing,
    "codec": fuzz_codec,
    "handshake": fuzz_handshake,
    "records": fuzz_records,
    "envelope": fuzz_envelope,
    "messages": fuzz_messages,
    "deck_messages": fuzz_deck_messages,
    "deck_receive": fuzz_deck_receive,
    "proofs": fuzz_proofs,
    "tableinfo": fuzz_tableinfo,
    "journal": fuzz_journal,
    "game_journal": fuzz_game_journal,
    "transcript": fuzz_transcript,
}


# --- seeds: what a corpus starts from --------------------------------------------------------

def seeds(target: str) -> list[bytes]:
    """Valid inputs of each target, built from the golden vectors (tests/protocol/golden)."""
    wire = golden_all()
    deck = golden_all(GOLDEN / "deck")
    if target == "framing":
        return [Framer().send(w) for w in wire[:6]] + [b"".join(Framer().send(w) for w in wire)]
    if target in ("codec", "messages"):
        return wire
    if target == "envelope":
        return [golden(n) for n in ("envelope_ack", "envelope_entry", "envelope_intent",
                                    "envelope_start", "envelope_deck_message")]
    if target == "handshake":
        return [b"\x00" + Framer().send(golden("handshake_init")),
                b"\x01" + Framer().send(golden("handshake_reply"))]
    if target == "records":
        return [golden(n) for n in ("ping", "pong", "join_request", "table_info",
                                    "catch_up_response", "envelope_entry")]
    if target == "deck_messages":
        return deck
    if target == "deck_receive":
        return [bytes([i]) + d for i in range(3) for d in deck]
    if target == "proofs":
        return [bytes([0]) + bytes(64), bytes([1, 1]) + bytes(128), bytes([2, 0]) + bytes(96),
                bytes([3]) + g.base_mul(9)]
    if target == "tableinfo":
        from p2p_durak.node.tableinfo import TableAd
        from p2p_durak.protocol.messages import TimeoutPolicy, TurnTimer
        ad = TableAd(table_id="0123456789abcdef0123456789abcdef", name="Kitchen table",
                     variant="app_podkidnoy", rules_hash="ab" * 32, seats_taken=1,
                     seats_free=2, fingerprint=ALICE.fingerprint, port=9000,
                     protocol_version=1)
        timed = TableAd(**{**ad.__dict__, "timer": TurnTimer(30, TimeoutPolicy.BOT, 60)}) \
            if hasattr(ad, "__dict__") else ad
        return [encode_txt(ad), encode_txt(timed)]
    if target == "journal":
        path = _scratch_dir() / "seed.journal"
        path.unlink(missing_ok=True)
        with Journal.open(path) as writer:
            writer.append(b"hello", sync=False)
            writer.sync()
            writer.append(b"world", sync=False)
        return [path.read_bytes(), b""]
    if target == "game_journal":
        start = golden("envelope_start")
        return [_framed([codec.encode(r) for r in (
            ("start", start, ((bytes(32), "Ann", "p0:9000"),), b"rules", "Kitchen", "ann",
             "Ann", "", "p0", 9000),
            ("series", 3), ("seed", bytes(32)), ("made", b"deck", b"coin"),
            ("signed", golden("envelope_entry")),
            ("commit", golden("envelope_entry"), (golden("envelope_ack"),)),
            ("halted", "why"), ("finished",))])]
    if target == "transcript":
        return [Transcript(golden("envelope_start"), (golden("envelope_entry"),),
                           (golden("envelope_ack"),)).save()]
    raise KeyError(target)


def corpus(target: str) -> list[bytes]:
    """The target's corpus in the repository, or its seeds when it has none yet."""
    folder = CORPUS / target
    files = sorted(folder.iterdir()) if folder.is_dir() else []
    return [f.read_bytes() for f in files if f.is_file()] or seeds(target)

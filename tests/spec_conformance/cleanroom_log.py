"""A walk over a saved game transcript by the rules of docs/protocol.md §10, from the spec alone.

What can be checked without the game's machine (the engine's sequencer and state hashes need
the rules engine and the deck; §10.11) is checked here: the file layout and bounds (§10.9), the
genesis (§10.1), the hash chain and the sequencer's signature (R2), every ordered intent (R3),
one item per author (R4), the fair order of racing items (R5), the deck steps' own seat and
game (§10.12), a graceful leave (§10.12: the leaver is no longer a member), and the final
certificate of the members (§10.4). A violation raises `ChainViolation` naming
the position and the rule.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from .cleanroom_crypto import sha256
from .cleanroom_msgpack import Bounds, SpecDecodeError, Value, read
from .cleanroom_schema import DIRECT, SpecMessage, SpecRefusal, identify, open_envelope

MAGIC = "p2p-durak transcript"
# §10.9: a transcript file is not a wire message; these are its own bounds.
TRANSCRIPT_BOUNDS = Bounds(max_depth=2, max_array=1 << 20, max_text=len(MAGIC),
                           max_message=256 << 20)
DECK_STEP = 0  # §10.12 intent kinds
VOTE = 3
LEAVE = 4


class ChainViolation(Exception):
    def __init__(self, seq: int, rule: str, reason: str) -> None:
        super().__init__(f"position {seq}, {rule}: {reason}")
        self.seq = seq
        self.rule = rule


@dataclass
class Walk:
    """What the walk learned: per-position facts a test can look at."""

    game: bytes
    players: tuple[bytes, ...]
    hashes: list[bytes] = field(default_factory=list)  # entry_hash(0), entry_hash(1), ...
    entries: list[SpecMessage] = field(default_factory=list)
    raced: int = 0  # entries of two or more items (R5 applied)
    deck_steps: int = 0
    counters: dict[int, int] = field(default_factory=dict)  # seat → last counter
    left: set[int] = field(default_factory=set)  # players no longer members (§10.4, §10.12)
    deck_games: list[bytes] = field(default_factory=list)  # the deck's game id of each game
    final_state_hash: bytes = b""


def signed(data: Value, game: bytes, seq: int, rule: str) -> tuple[bytes, SpecMessage]:
    """§8: the author and payload of a verified envelope of this game, or ChainViolation."""
    try:
        if not isinstance(data, bytes):
            raise SpecRefusal("MALFORMED", "not bytes")
        envelope = identify(data, DIRECT)
        if envelope.name != "Envelope":
            raise SpecRefusal("MALFORMED", f"{envelope.name}, not an Envelope")
        if envelope.blob("game") != game:
            raise SpecRefusal("MALFORMED", "an envelope of another game")
        return open_envelope(envelope)
    except SpecRefusal as refusal:
        raise ChainViolation(seq, rule, str(refusal)) from None


def walk(data: bytes) -> Walk:
    try:
        value = read(data, TRANSCRIPT_BOUNDS)
    except SpecDecodeError as exc:
        raise ChainViolation(0, "§10.9", str(exc)) from None
    if not (isinstance(value, tuple) and len(value) == 5 and value[:2] == (MAGIC, 1)
            and isinstance(value[2], bytes) and isinstance(value[3], tuple)
            and isinstance(value[4], tuple)):
        raise ChainViolation(0, "§10.9", "not a version-1 transcript file")
    start_bytes, entries, acks = value[2], value[3], value[4]
    game = identify(start_bytes, DIRECT).blob("game")
    host, start = signed(start_bytes, game, 0, "§10.1")
    if start.name != "Start":
        raise ChainViolation(0, "§10.1", f"the genesis is a {start.name}")
    players = tuple(p[0] for p in start.items("players")
                    if isinstance(p, tuple) and isinstance(p[0], bytes))
    if host not in players:
        raise ChainViolation(0, "§9", "Start is not signed by a player")
    state = Walk(game, players, hashes=[sha256(start_bytes)])
    for seq, entry_bytes in enumerate(entries, start=1):
        _check_entry(state, seq, entry_bytes)
    _check_certificate(state, acks)
    return state


def _check_entry(state: Walk, seq: int, entry_bytes: Value) -> None:
    author, entry = signed(entry_bytes, state.game, seq, "R2")
    assert isinstance(entry_bytes, bytes)
    if entry.name != "Entry":
        raise ChainViolation(seq, "R2", f"{entry.name}, not an Entry")
    sequencer = entry.number("sequencer")
    if entry.number("seq") != seq:
        raise ChainViolation(seq, "R2", f"Entry.seq is {entry.number('seq')}")
    if entry["prev_hash"] != state.hashes[seq - 1]:
        raise ChainViolation(seq, "R2", "prev_hash is not entry_hash(seq − 1)")
    if sequencer >= len(state.players) or state.players[sequencer] != author:
        raise ChainViolation(seq, "R2", "not signed by the player Entry.sequencer names")
    if sequencer in state.left:
        raise ChainViolation(seq, "§10.4", f"sequencer {sequencer} left the table")
    authors: list[int] = []
    keys: list[bytes] = []
    gathered = True
    for item in entry.items("intents"):
        signer, intent = signed(item, state.game, seq, "R3")
        if intent.name != "Intent":
            raise ChainViolation(seq, "R3", f"an item is a {intent.name}")
        seat = intent.number("seat")
        if seat >= len(state.players) or state.players[seat] != signer:
            raise ChainViolation(seq, "R3", "an intent not signed by its own seat")
        if intent.number("based_on") != seq - 1:
            raise ChainViolation(seq, "R3", f"based_on {intent.number('based_on')}, "
                                            f"not {seq - 1}")
        # §10.2: one more than the author's last counter in the chain; the first is 1.
        last = state.counters.get(seat, 0)
        if intent.number("counter") != last + 1:
            raise ChainViolation(seq, "R3", f"seat {seat} counter {intent.number('counter')} "
                                            f"after {last}")
        state.counters[seat] = last + 1
        if seat in authors:
            raise ChainViolation(seq, "R4", f"two items by seat {seat}")
        authors.append(seat)
        payload = identify(item, DIRECT).blob("payload")  # type: ignore[arg-type]
        keys.append(sha256(entry.blob("prev_hash") + sha256(payload)))
        gathered &= _check_table_payload(state, seq, seat, intent.blob("action"))
    if len(keys) >= 2:
        fairness = entry["fairness"]
        if not isinstance(fairness, tuple) or fairness[1] != len(keys):
            raise ChainViolation(seq, "R5", f"{len(keys)} items with fairness {fairness!r}")
        if any(a >= b for a, b in itertools.pairwise(keys)):
            raise ChainViolation(seq, "R5", "items not in ascending order of their keys")
        state.raced += 1
    # §10.12: while deck steps or end-of-game choices are gathered, the sequencer is the lowest
    # party still owing one, and everyone in this entry owed one — except, with three or more
    # at the table, when one party alone owes: the lowest other party orders its part.
    alone = len(authors) == 1 and len(state.players) - len(state.left) >= 3
    if gathered and sequencer > min(authors) and not alone:
        raise ChainViolation(seq, "§10.12", f"sequencer {sequencer} while seat "
                                            f"{min(authors)} still owed a step")
    state.hashes.append(sha256(entry_bytes))
    state.entries.append(entry)


def _check_table_payload(state: Walk, seq: int, seat: int, action: bytes) -> bool:
    """§10.12: a table intent is a canonical array `[kind, ...]`; a deck step's message names
    its author's seat and the game. True when the intent is gathered (a deck step or a choice
    to play on) rather than raced."""
    try:
        payload = read(action)
        if not (isinstance(payload, tuple) and payload and isinstance(payload[0], int)
                and 0 <= payload[0] <= 4):
            raise SpecDecodeError("not a table intent [kind, ...] with kind 0..4")
        if payload[0] == LEAVE and len(payload) == 2 and isinstance(payload[1], bytes):
            # its leave step: a deck `tokens` message for step leave:<party>; it then is no
            # longer a member (§10.4)
            state.left.add(seat)
        elif payload[0] != DECK_STEP:
            return payload[0] == VOTE
        deck = read(payload[1]) if len(payload) == 2 and isinstance(payload[1], bytes) else None
        if not (isinstance(deck, tuple) and len(deck) >= 4 and isinstance(deck[0], str)):
            raise SpecDecodeError("a deck step is [0, bin of [kind, game_id, step, seat, ...]]")
    except SpecDecodeError as exc:
        raise ChainViolation(seq, "§10.12", f"seat {seat}: {exc}") from None
    if deck[3] != seat:
        raise ChainViolation(seq, "§10.12", f"seat {seat} sent a deck step of seat {deck[3]!r}")
    if not state.deck_games:
        state.deck_games.append(state.game)
    if deck[1] == series_game_id(state.game, len(state.deck_games) + 1):
        state.deck_games.append(deck[1])  # the next game of the series begins (§10.12)
    elif deck[1] != state.deck_games[-1]:
        raise ChainViolation(seq, "§10.12", f"seat {seat} sent a deck step of another game")
    if payload[0] == LEAVE:
        if deck[0] != "tokens" or deck[2] != f"leave:{seat}":
            raise ChainViolation(seq, "§10.12", f"seat {seat}'s leave step is no leave tokens")
        return False
    state.deck_steps += 1
    return True


def series_game_id(game: bytes, number: int) -> bytes:
    """§10.12: the game id the deck messages of game `number` (1, 2, …) of a series carry."""
    if number == 1:
        return game
    return sha256(b"p2p-durak/series\0" + game + number.to_bytes(4, "big"))[:16]


def _check_certificate(state: Walk, acks: tuple[Value, ...]) -> None:
    """§10.4: exactly one ack per member (every player but those that left), each naming the
    last entry's hash and one common state hash. A reader takes them in any order; a writer
    puts them in seat order (§10.9: every honest player saves the same bytes)."""
    seq = len(state.hashes) - 1
    by_seat: dict[int, bytes] = {}
    for ack_bytes in acks:
        signer, ack = signed(ack_bytes, state.game, seq, "§10.4")
        if ack.name != "Ack" or signer not in state.players:
            raise ChainViolation(seq, "§10.4", "not an ack by a player")
        seat = state.players.index(signer)
        if seat in by_seat:
            raise ChainViolation(seq, "§10.4", f"two acks by seat {seat}")
        if ack["seq"] != seq or ack["entry_hash"] != state.hashes[seq]:
            raise ChainViolation(seq, "§10.4", f"seat {seat} acks another entry")
        by_seat[seat] = ack.blob("state_hash")
    members = set(range(len(state.players))) - state.left
    if set(by_seat) != members:
        missing = sorted(members - set(by_seat))
        others = sorted(set(by_seat) - members)
        raise ChainViolation(seq, "§10.4", f"no ack from seats {missing}" if missing
                             else f"acks from seats {others} that left")
    if len(set(by_seat.values())) != 1:
        raise ChainViolation(seq, "§10.4", "the acks name different state hashes")
    state.final_state_hash = by_seat[min(members)]

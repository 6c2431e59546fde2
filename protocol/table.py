"""The table's replicated state machine: the rules engine and the mental-poker deck, driven by the
ordered log.

Every node holds one `TableMachine` for its own party and feeds it the committed intents in log
order with `apply`. The machine decides, from the engine's state, which deck operation runs next
(keys, the seating coin, the shuffle, the private deal, the trump reveal, draws, lots, the final
audit), turns completed deck operations into the engine's chance actions (deal, reveal, lot),
and checks every player action against both: the engine says whether the move is legal, the
deck proves that each card played is the card in the slot the player holds. Nothing here reads
a clock or a socket; `owed()` says what this party must submit next, `play()` builds this
party's own moves.

Parties are the players in `Start` order (they sign and sequence); engine seats are drawn by the
seating coin, so nobody chooses where he sits or who deals.

Intent payload (the `Intent.action` bytes, canonical msgpack):
    [0, deck message bytes]                          a deck protocol step
    [1, engine action, [slot...]]                    a move: the action without the cards it
                                                     takes from the author's hand, and the slot
                                                     of each; a card nobody has seen opens once
                                                     the move is committed (the author's tokens,
                                                     deck step `open:<slot>`), and only then is
                                                     the action applied with it, so a move that
                                                     loses a race shows nothing (верю не верю's
                                                     face-down cover and покерный's exchange
                                                     name slots that stay closed)
    [2, suit]                                        невидимый: the dealer's party, who alone
                                                     was shown the bottom stock card, announces
                                                     its suit (then proves it, a ClassOp)
    [1, engine action with a pick, []]               оборотный: a play by position in the
                                                     author's hand, which he cannot see; the
                                                     card is opened to all (a RevealOp: the
                                                     tokens of a party that sees it) and the
                                                     action applied with it
    [3, bool]                                        after a game's audit: this party plays the
                                                     next game of the series (true) or stops
    [4, nil]                                         this party announces it leaves the table
    [4, tokens bytes]                                then, between bouts (the game waits for it),
                                                     its leave: the deck's leave step, its tokens
                                                     on every card still closed, which opens its
                                                     own hand
    [5, tokens bytes]                                a card of the author's hand opens to no
                                                     card (a false shuffle): its token on that
                                                     slot (step "broken:<slot>"), which opens it
                                                     to all; refused if it opens to a card. The
                                                     game then ends with the audit, which names
                                                     the false shuffle's author
(a deck message's bytes are the canonical encoding of its own wire form)
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

from p2p_durak import engine as eng
from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine import moves as M
from p2p_durak.engine.bout import blind_templates
from p2p_durak.engine.durak_family import ATTACK_DEFEND as FAMILY
from p2p_durak.engine.family import (
    Capabilities,
    ChanceRequest,
    DrawLot,
    JointCoin,
    Numbering,
    OpenCard,
    ProveSuit,
    Reshuffle,
    ShuffleDeck,
)
from p2p_durak.engine.layout import Layout
from p2p_durak.engine.setup import (
    GOVNO,
    JOKER_ROUND,
    JOKERS,
    LOWEST_ROUND,
    claim_round,
    claim_suit,
)
from p2p_durak.engine.state import UNKNOWN, Phase
from p2p_durak.protocol import codec
from p2p_durak.protocol.errors import ProtocolError
from p2p_durak.protocol.mental import coins, group
from p2p_durak.protocol.mental import events as dev
from p2p_durak.protocol.mental.deck import DeckParty
from p2p_durak.protocol.mental.elgamal import Ciphertext, unmask
from p2p_durak.protocol.mental.errors import DeckError, InvalidProof
from p2p_durak.protocol.mental.messages import Message as DeckMessage
from p2p_durak.protocol.mental.messages import Shuffle, Tokens, message_from_wire
from p2p_durak.protocol.mental.ops import (
    AuditOp,
    ClassOp,
    CoinOp,
    KeysOp,
    LeaveOp,
    Op,
    RevealOp,
    ShowOp,
    ShuffleOp,
)
from p2p_durak.protocol.mental.proofs import make_tokens
from p2p_durak.protocol.mental.state import Pending

DECK_STEP = 0
MOVE = 1
ANNOUNCE = 2
NEXT_GAME = 3
VOTE_TIMED_OUT = "timeout"  # [NEXT_GAME, false, "timeout"]: the node stopped for its player
LEAVE = 4
BROKEN = 5
ABANDON = 6  # [6, party]: the author's node gave up waiting for `party` (docs/protocol.md §10.12)


def _lists(value: object) -> object:
    """The deck layer's wire form uses lists; our codec decodes arrays as tuples."""
    if isinstance(value, tuple | list):
        return [_lists(v) for v in value]
    return value


def deck_message(value: object) -> DeckMessage:
    if type(value) is not bytes:
        raise ValueError("a deck message travels as bytes")
    return message_from_wire(_lists(codec.decode(value)))


# the moves whose cards come out of the mover's hand: the intent names their slots only
_HAND_PLAYS = frozenset({A.LEAD, A.THROW, A.BEAT, A.TRANSFER, A.SHOW, A.CLAIM, A.CHAIN})


def _without_cards(action: eng.Action) -> eng.Action:
    """A move as its intent carries it: without the cards it takes from the hand."""
    return eng.Action(action.kind, action.seat, (), action.target)


def _deck_bytes(msg: DeckMessage) -> bytes:
    return codec.encode(msg.to_wire())


def seeded_secret_rng(seed: bytes, system: Callable[[int], bytes]) -> Callable[[int], bytes]:
    """The party's randomness: its first draw (the per-game secret key) comes from `seed`, so a
    restarted node that kept the seed is the same party; every later draw (proof nonces,
    permutations, masks) comes from `system`, because reusing a nonce after a restart would leak
    the key."""
    first = [True]

    def rng(size: int) -> bytes:
        if first[0]:
            first[0] = False
            return hashlib.shake_256(b"p2p-durak/deck-secret" + seed).digest(size)
        return system(size)

    return rng


class TableReject(Exception):
    """An intent the table refuses, naming the party and the reason; nothing was applied."""

    def __init__(self, party: int, reason: str, code: str = "illegal") -> None:
        super().__init__(f"party {party}: {reason}")
        self.party = party
        self.reason = reason
        self.code = code


# ---- what the machine reports -------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Seated:
    seat_of_party: tuple[int, ...]
    dealer: int
    # the engine's game that begins (a reader of a whole series' history at once, such as a
    # restarted node, cannot take it from the table's current state)
    game: eng.Game | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Moved:
    """An engine action was applied (a player's move or a chance outcome)."""

    seat: int
    action: eng.Action
    events: tuple[E.Event, ...]


@dataclass(frozen=True, slots=True)
class CardsLearned:
    """This party saw its own cards (after the deal or a draw)."""

    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandSeen:
    """This party saw cards of another seat's hand: оборотный, a hand its owner does not see;
    с болваном, the dummy's, shown to its controller."""

    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AuditFinished:
    cheaters: tuple[tuple[int, str], ...]  # (seat, what was false)


@dataclass(frozen=True, slots=True)
class Forfeited:
    """The game's result is a forfeit (the engine's `forfeit`): `seats` (engine seats) lost it,
    with teams their teams, whatever the play said — caught lying by the end-of-game audit
    (`why` "cheated"), or the party at that seat abandoned the game: every other party's node
    gave up waiting for it (`why` "abandoned"). `result` is the result that stands (and is
    scored)."""

    seats: tuple[int, ...]
    why: str
    result: eng.Result


@dataclass(frozen=True, slots=True)
class DeckBroken:
    """A slot opened to a point that is no card: party `shuffler`'s shuffle (deck step `step`)
    output it, though every token on it was proven. `public`: a reveal to all found it (every
    node, at the same entry; the game then ends with the audit, which names the false shuffle);
    otherwise only this party, its viewer, did, and its node shows the slot to all
    (`[5, tokens]`), which makes it public."""

    slot: int
    shuffler: int | None
    step: str
    reason: str
    public: bool


@dataclass(frozen=True, slots=True)
class SeriesScore:
    """The series so far, per engine seat (the seats stay the same from game to game): games
    played, how often each seat was the durak, the epaulettes hung on it, and a scored game's
    points, added up."""

    games: int = 0
    duraks: tuple[int, ...] = ()
    pogony: tuple[int, ...] = ()
    points: tuple[int, ...] = ()
    draws: int = 0

    def add(self, result: eng.Result, n: int) -> SeriesScore:
        duraks = list(self.duraks or (0,) * n)
        pogony = list(self.pogony or (0,) * n)
        for seat in result.durak:
            duraks[seat] += 1
            pogony[seat] += result.pogony
        points = tuple(a + b for a, b in zip(self.points or (0,) * n, result.scores,
                                              strict=True)) if result.scores else self.points
        return SeriesScore(self.games + 1, tuple(duraks), tuple(pogony), points,
                           self.draws + int(result.draw))


@dataclass(frozen=True, slots=True)
class NextGame:
    """Every party chose to play on: game `number` of the series begins (new per-game keys, a
    new shuffle; the same seats, the dealer and first attacker by the engine's `next_game`)."""

    number: int
    score: SeriesScore


@dataclass(frozen=True, slots=True)
class SeriesOver:
    """A party chose to stop after the game: the table stops (`stopped`: those parties;
    `timed_out`: those of them that did not choose in time, so their node stopped for them);
    or a party abandoned the game (`abandoned`; `stopped` is then empty)."""

    stopped: tuple[int, ...]
    score: SeriesScore
    timed_out: tuple[int, ...] = ()
    abandoned: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class LeaveAnnounced:
    """The party leaves the table: it plays on to the end of the bout, then (the game waits
    for it) opens what only it can open and goes."""

    party: int


@dataclass(frozen=True, slots=True)
class PartyLeft:
    """The party left the table on purpose: it opened what only it could open, and the rest
    play on without it (its acks are no longer needed, it orders nothing)."""

    party: int


TableEvent = (Seated | Moved | CardsLearned | HandSeen | AuditFinished | Forfeited
              | DeckBroken | NextGame
              | SeriesOver | LeaveAnnounced | PartyLeft)


def series_game_id(game_id: bytes, number: int) -> bytes:
    """The deck's game id for game `number` (1, 2, ...) of a table's series: every game's keys,
    proofs and tokens are bound to its own game, so nothing of one game replays into another."""
    if number == 1:
        return game_id
    return hashlib.sha256(b"p2p-durak/series\0" + game_id + number.to_bytes(4, "big")
                          ).digest()[:len(game_id)]


class LogDeckParty(DeckParty):
    """A deck party whose own messages go through the log like everyone's.

    The base party applies its own messages the moment it makes them; in a replicated game every
    change must happen at its place in the log, so here a message is only made (`owed`) and is
    applied when it comes back committed. Each message is made once per step and phase, so a
    commitment and its later reveal always match.
    """

    def __init__(self, game_id: bytes, seat: int, n_seats: int, n_cards: int,
                 rng: Callable[[int], bytes], *, observer: bool = False) -> None:
        # Folded: the shuffles of one operation are checked together when the last one is
        # applied (a third less CPU, and the shufflers prove one after another without the
        # table verifying each shuffle in between). A false shuffle found then was already
        # committed: `_verify_folded` undoes it and every shuffle made on top of it as the
        # effect of the intent that completed the check (`ShuffleUndone`), so its author is
        # named on every node and the undone seats shuffle again.
        super().__init__(game_id, seat, n_seats, n_cards, rng, fold_shuffle_proofs=True)
        self.observer = observer  # an auditor replaying a transcript: it holds no seat's key
        # This seat's own messages and coin secrets, shared by every fork: whichever copy of
        # the deck is asked, a step's message is made once and a coin reveals what it committed.
        self._made: dict[tuple[str, str], DeckMessage] = {}
        self._coins: dict[str, bytes] = {}
        # the deck a made shuffle was made from (a shuffle undone is made again on the new one)
        self._made_from: dict[tuple[str, str], bytes] = {}

    def _progress(self) -> list[dev.Event]:
        return []

    def receive(self, msg: DeckMessage) -> list[dev.Event]:
        try:
            # This party's own message, exactly as it made it: its proofs hold (it made them),
            # so only the other parties check them; the outcome is the same on every node.
            if msg.seat == self.seat and self._made.get((msg.step, msg.KIND)) == msg:
                return self._accept(msg, verify=False)
            return super().receive(msg)
        except _EarlierShuffleFalse as undone:
            return [ShuffleUndone(undone.step, undone.false_seat, undone.reason)]

    def _verify_folded(self, p: Pending) -> list[dev.Event]:
        try:
            return super()._verify_folded(p)
        except InvalidProof as exc:
            if exc.seat is None or exc.seat == p.order[-1]:
                raise  # the shuffle being applied is false: refused like any false proof
            # A committed shuffle is false: the deck is back where it was before it (the base
            # class undid it and the later ones), which is this intent's effect.
            raise _EarlierShuffleFalse(exc.seat, exc.step, exc.reason) from exc

    def _on_slot_opened(self, step: str, slot: int) -> list[dev.Event]:
        return [] if self.observer else super()._on_slot_opened(step, slot)

    def owed(self) -> DeckMessage | None:
        p = self.pending
        if self.observer or p is None or self.seat not in p.due or self.seat in p.got:
            return None
        key = (p.op.step, p.phase)
        made = self._made.get(key)
        basis = _deck_basis(p)
        if made is not None and self._made_from.get(key, basis) != basis:
            made = None  # made on a deck that an undone shuffle had produced
        if made is None:
            if p.op.step in self._coins:
                p.secret_value = self._coins[p.op.step]
            made = self._contribution(p)
            if p.secret_value:
                self._coins[p.op.step] = p.secret_value
            self._made[key] = made
            self._made_from[key] = basis
        return made

    def forget_made(self, step: str) -> None:
        """Make this step's message afresh next time (a leave's tokens cover the cards still
        closed when it is made, so one made earlier may be stale)."""
        for key in [k for k in self._made if k[0] == step]:
            del self._made[key]

    def coin_secret(self, step: str) -> bytes:
        """The secret this party committed to in coin step `step` (journaled with the commit)."""
        return self._coins.get(step, b"")

    def made_messages(self) -> list[tuple[DeckMessage, bytes]]:
        return [(m, self._coins.get(m.step, b"")) for m in self._made.values()]

    def restore_made(self, records: Sequence[tuple[bytes, bytes]]) -> None:
        """After a restart: the messages this party had made (and journaled) before, so it sends
        the same ones again and reveals what it committed to (those of this deck's game: every
        game of a series has a deck of its own)."""
        for data, coin in records:
            msg = deck_message(data)
            if msg.game_id != self.game_id:
                continue
            self._made[(msg.step, msg.KIND)] = msg
            if coin:
                self._coins[msg.step] = coin

    def opening_tokens(self, step: str, slot: int) -> Tokens:
        """Tokens that open one of this seat's own cards to everyone, outside any deck step
        (a claim that the card opens to no card: `broken_claim`)."""
        found = self.slots[slot].view_of(self.seat)
        if found is None:
            raise DeckError(self.seat, step, f"seat {self.seat} has no view of slot {slot}")
        index, view = found
        tokens, proof = make_tokens(self.ctx(step, self.seat), self._secret, self.public_key,
                                    [view.ct.c1], self.rng)
        return Tokens(self.game_id, step, self.seat, (slot,), (index,), tokens, proof)

    def pending_op(self) -> Pending | None:
        return self.pending

    def fork(self) -> LogDeckParty:
        """An independent copy, so the log can keep the committed deck while it validates the
        next entry. Ciphertexts, keys and proofs are immutable values and are shared; only the
        containers that change are copied (far cheaper than a deep copy)."""
        twin = copy.copy(self)
        twin.active = list(self.active)
        twin.public_keys = dict(self.public_keys)
        self.share_slots_with(twin)  # each slot copied when either of the two changes it
        twin.pending = None if self.pending is None else _copy_pending(self.pending)
        twin.finished_steps = set(self.finished_steps)
        twin.journal = list(self.journal)
        twin.audit_secrets = dict(self.audit_secrets)
        twin.seen = dict(self.seen)
        return twin


def _deck_basis(p: Pending) -> bytes:
    """What a shuffle is made from: the deck it takes in (other messages: nothing that an
    undone shuffle could change)."""
    if p.phase != Shuffle.KIND:
        return b""
    return hashlib.sha256(b"".join(ct.to_bytes() for ct in p.current)).digest()


class _EarlierShuffleFalse(InvalidProof):
    """The folded check found an earlier, committed shuffle false (and undid it)."""

    def __init__(self, seat: int, step: str, reason: str) -> None:
        super().__init__(seat, step, reason)
        self.false_seat = seat


@dataclass(frozen=True, slots=True)
class ShuffleUndone(dev.Event):
    """A committed shuffle by `seat` was found false when the operation's shuffles were
    checked together: it and the shuffles made on top of it are undone; they are due again."""

    seat: int
    reason: str


def _copy_pending(p: Pending) -> Pending:
    return replace(p, due=list(p.due), got=set(p.got), commits=dict(p.commits),
                   reveals=dict(p.reveals), order=list(p.order), current=list(p.current),
                   base_grants=dict(p.base_grants),
                   copy_grants={k: list(v) for k, v in p.copy_grants.items()},
                   items=list(p.items), owed={k: list(v) for k, v in p.owed.items()},
                   unverified=list(p.unverified))


@dataclass
class _Claim:
    seat: int
    card: int  # -1: "no trump"
    slots: tuple[int, ...]  # the claimant's hand at the time
    trump: int
    # щелковский's tie-break rounds: the cards this seat showed before (a next trump must be
    # the lowest of the others), or a joker round
    shown_before: tuple[int, ...] = ()
    jokers: bool = False
    by: int = -1  # оборотный: the seat that made the claim for the claimant
    lowest: bool = False  # SP5's `lowest_card` fallback: the lowest card of any suit


class _Awaiting(Enum):
    """A deck step under way that answers no chance request of the engine's."""

    PICK = "pick"  # оборотный: a blind play waits for its card to open
    SUIT_PROOF = "suit-proof"  # невидимый: the announcer proves the announced suit
    REMASK = "remask"  # верю не верю: a hand is being re-masked by its owner


@dataclass
class TableMachine:
    game_id: bytes
    party: int
    n_parties: int
    rules: eng.RuleSet
    rng: Callable[[int], bytes]
    deck: LogDeckParty = field(init=False)
    seat_of_party: tuple[int, ...] = ()
    party_of_seat: tuple[int, ...] = ()
    state: eng.State | None = None  # this party's partial view, once seated
    # where each deck slot lies, as the engine's card movements put it (engine/layout.py)
    layout: Layout = field(default_factory=Layout)
    claims: list[_Claim] = field(default_factory=list)
    # занудный: (seat, led card, the hand's slots then) for the audit to check the lead was of
    # the highest rank in that hand, which a partial view could not see
    lead_checks: list[tuple[int, int, tuple[int, ...]]] = field(default_factory=list)
    audit: AuditFinished | None = None
    # (party, step, why) of each committed shuffle the folded check found false and undid
    undone: tuple[tuple[int, str, str], ...] = ()
    # slots of this game that opened to no card (a viewer's own: only its node knows), and
    # the first public one, which ends the game with the audit
    deck_faults: tuple[DeckBroken, ...] = ()
    deck_broken: DeckBroken | None = None
    _broken_made: dict[int, bytes] = field(default_factory=dict)  # this party's claims, made
    # (party, why) of each committed move whose cards, once opened, did not make it legal
    voided: tuple[tuple[int, str], ...] = ()
    digest: bytes = b"\x00" * 32  # running hash of every applied intent: the deck's history
    history: tuple[TableEvent, ...] = ()  # everything that happened, for the node to report
    _step_counter: int = 0
    # what the open deck step is for: the engine's chance request it answers (its outcome
    # feeds the engine), or one of the table's own steps
    _awaiting: ChanceRequest | _Awaiting | None = None
    _suit_due: bool = False  # невидимый: the dealer's party owes the suit announcement
    _pick: eng.Action | None = None  # оборотный: the blind play waiting for its card's reveal
    # a committed move waiting for its author to open its cards: (party, the action without
    # them, its slots, the opening step)
    _move: tuple[int, eng.Action, tuple[int, ...], str] | None = None
    # отбойный: slots opened to all before a reshuffle changed their card, as they were
    _opened_before_shuffle: dict[int, int] = field(default_factory=dict)
    _slot_gen: dict[int, int] = field(default_factory=dict)  # reshuffles each slot went through
    # покерный: the closed slots a reshuffle changed, as they were (opened at the audit)
    # (with the reveal tokens published on it by then: a party that left since took its key)
    _closed_before_shuffle: dict[int, tuple[Ciphertext, dict[int, bytes]]] = field(
        default_factory=dict)
    # верю не верю: the seats whose hands were re-masked in the re-mask under way, and the
    # bout's draws (step, grants), shown together with those hands once it is done
    _remasked: list[int] = field(default_factory=list)
    _show_after_remask: tuple[str, tuple[tuple[int, tuple[int, ...]], ...]] | None = None
    # Король-говно, a later game of the series: each seat's title (Говно deals and leads)
    titles: tuple[int, ...] = ()
    # The series: which game of it this is, the score so far, each party's choice after the
    # game's audit (play on, or stop), and whether the table has stopped.
    game_number: int = 1
    score: SeriesScore = field(default_factory=SeriesScore)
    votes: dict[int, bool] = field(default_factory=dict)
    vote_timeouts: tuple[int, ...] = ()  # parties whose stop was their node's, on time
    series_over: bool = False
    leaving: tuple[int, ...] = ()  # parties that announced they leave, in that order
    left: tuple[int, ...] = ()  # parties that left the table on purpose, in the order they did
    # Abandonment (docs/protocol.md §10.12): per party the table waits for, the parties whose
    # nodes gave up waiting for it (a party so claimed is suspended: its acks are not needed
    # until it answers); and the party that abandoned the game, once every other claimed it.
    abandon_claims: dict[int, tuple[int, ...]] = field(default_factory=dict)
    abandoned: tuple[int, ...] = ()
    # This party's randomness for game k of the series (its first draw is the game's deck
    # secret, so a restarted node must get the same one); None: `rng` goes on (an observer).
    rng_for_game: Callable[[int], Callable[[int], bytes]] | None = None
    _next: eng.Game | None = None  # the next game's setup, dealt once its keys are ready
    _made_before: tuple[tuple[bytes, bytes], ...] = ()  # journaled deck messages (a restart)
    # Длинный дурак, a later game of a match: each seat's six and ladder so far
    personal: tuple[int, ...] = ()
    ladder: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        # с болваном: the dummy is one more engine seat, which no party holds
        self.n_seats = self.n_parties + (1 if self.rules.dummy_hand else 0)
        game = eng.make_game(self.rules, self.n_seats)  # validates rules and player count
        self.n_cards = game.n_cards
        # party -1: an observer (an auditor replaying a transcript) that sits in no seat
        self.deck = LogDeckParty(self.game_id, max(self.party, 0), self.n_parties, self.n_cards,
                                 self.rng, observer=self.party < 0)
        self.deck.begin(KeysOp("keys"))

    def fork(self) -> TableMachine:
        """An independent copy (the engine state is immutable and shared)."""
        twin = copy.copy(self)
        twin.deck = self.deck.fork()
        twin.layout = self.layout.copy()
        twin.claims = list(self.claims)
        twin.votes = dict(self.votes)
        twin.abandon_claims = dict(self.abandon_claims)
        twin.lead_checks = list(self.lead_checks)
        twin._opened_before_shuffle = dict(self._opened_before_shuffle)
        twin._slot_gen = dict(self._slot_gen)
        twin._closed_before_shuffle = dict(self._closed_before_shuffle)
        twin._remasked = list(self._remasked)
        return twin

    # ---- queries ---------------------------------------------------------------------------

    @property
    def hand_slots(self) -> dict[int, list[int]]:
        """Each seat's hand, its slots in order (a view of `layout`)."""
        n = self.state.game.n_players if self.state is not None else 0
        return {seat: list(self.layout.slots(M.hand(seat))) for seat in range(n)}

    @property
    def stock_slots(self) -> list[int]:
        """The stock's slots, top first (a view of `layout`)."""
        return list(self.layout.slots(M.STOCK))

    @property
    def table_slots(self) -> list[int]:
        """The cards in play, in the order they came (a view of `layout`)."""
        return list(self.layout.slots(M.TABLE))

    @property
    def cover_slots(self) -> dict[int, int]:
        """The face-down covers on the table by the attack card they cover (верю не верю)."""
        return {label: slot for (zone, label), slot in self.layout.labels.items()
                if zone == M.TABLE}

    @property
    def trump_slot(self) -> int:
        """The slot of the face-up trump card, wherever it lies now (-1: none)."""
        state = self.state
        if state is None or state.trump_card < 0:
            return -1
        return next((slot for slot, st in enumerate(self.deck.slots)
                     if st.card == state.trump_card), -1)

    def _hand(self, seat: int) -> tuple[int, ...]:
        return self.layout.slots(M.hand(seat))

    @property
    def my_seat(self) -> int:
        if self.party < 0 or not self.seat_of_party:
            return -1
        return self.seat_of_party[self.party]

    def restore_made(self, records: Sequence[tuple[bytes, bytes]]) -> None:
        """After a restart: the deck messages this party made before, in any game of the
        series (each game's deck takes its own when it begins)."""
        self._made_before = tuple(records)
        self.deck.restore_made(self._made_before)

    def vote_due(self) -> tuple[int, ...]:
        """After a game's audit: the parties that have not yet said whether they play on."""
        if self.audit is None or self.series_over or self.deck.pending_op() is not None:
            return ()
        return tuple(p for p in range(self.n_parties) if p not in self.votes and p not in self.left)

    def _leave_due_tuple(self) -> tuple[int, ...]:
        party = self.leave_due()
        return () if party is None else (party,)

    def members(self) -> tuple[int, ...]:
        """The parties still at the table, whose acks commit an entry: not those that left or
        abandoned the game, nor one suspended by an abandonment claim (it is a member again
        once it answers)."""
        return tuple(p for p in range(self.n_parties) if p not in self.left
                     and p not in self.abandoned and p not in self.abandon_claims)

    def _leave_step(self, party: int) -> str:
        return f"leave:{party}"

    def leave_due(self) -> int | None:
        """The party that announced its leave and owes its leave step now: between bouts (or
        at once, when its seat is out of the game already) with the deck idle. The game waits
        for it: no move is taken meanwhile."""
        state = self.state
        if state is None or self.deck.pending_op() is not None or self.audit is not None \
                or state.phase == Phase.OVER:
            return None
        for party in self.leaving:
            if party in self.left:
                continue
            if state.phase == Phase.LEAD or (state.out >> self.seat_of_party[party]) & 1:
                return party
        return None

    def leave_concedes(self) -> bool:
        """Whether a party that wants to leave must concede instead: with two at the table (one
        would be left alone), or when its leave could not open its hand (оборотный: a player
        never sees his own cards)."""
        return len(self.deck.active) <= 2 or self.rules.hand_visibility != "owner_only"

    def _check_leaving(self, party: int) -> None:
        state = self.state
        if state is None or self.audit is not None or state.phase == Phase.OVER:
            raise TableReject(party, "a party leaves while a game is on", "wrong-phase")
        if party < 0 or party in self.left:
            raise TableReject(party, "it has left already", "forged")
        if self.leave_concedes():
            raise TableReject(party, "here a leaver concedes instead", "wrong-phase")

    def check_leave(self, party: int, raw: tuple[object, ...]) -> Tokens | None:
        """A well-formed leave by `party` that may come now: its announcement (None), or the
        tokens of its leave step (their proof is checked when the leave is applied); else
        TableReject."""
        self._check_leaving(party)
        if len(raw) != 2:
            raise TableReject(party, "a leave is [4, nil] or [4, tokens]", "malformed")
        if raw[1] is None:
            if party in self.leaving:
                raise TableReject(party, "it announced its leave already", "wrong-phase")
            return None
        if self.leave_due() != party:
            raise TableReject(party, "its leave step is not due (it comes between bouts)",
                              "wrong-phase")
        try:
            msg = deck_message(raw[1])
        except (DeckError, ValueError, TypeError, ProtocolError) as exc:
            raise TableReject(party, f"malformed tokens: {exc}", "malformed") from exc
        if not isinstance(msg, Tokens) or msg.seat != party \
                or msg.step != self._leave_step(party):
            raise TableReject(party, "a leave carries its own tokens for its leave step",
                              "forged")
        return msg

    def check_broken(self, party: int, raw: tuple[object, ...]) -> Tokens:
        """A well-formed claim by `party` that a card of its hand opens to no card: its tokens
        for that one slot of its own view, in the slot's `broken:<slot>` step, while no deck
        step is open (their proof is checked when the claim is applied); else TableReject."""
        if not self._broken_may_come():
            raise TableReject(party, "no broken card can be shown now", "wrong-phase")
        if len(raw) != 2:
            raise TableReject(party, "a broken card is [5, tokens]", "malformed")
        try:
            msg = deck_message(raw[1])
        except (DeckError, ValueError, TypeError, ProtocolError) as exc:
            raise TableReject(party, f"malformed tokens: {exc}", "malformed") from exc
        if not isinstance(msg, Tokens) or msg.seat != party or len(msg.slots) != 1:
            raise TableReject(party, "a broken card carries its own tokens for one slot",
                              "forged")
        slot = msg.slots[0]
        if not 0 <= slot < self.n_cards or msg.step != f"broken:{slot}" \
                or msg.step in self.deck.finished_steps:
            raise TableReject(party, f"tokens for another step than broken:{slot}", "forged")
        seat = self.seat_of_party[party]
        if slot not in self.hand_slots.get(seat, ()) or self.deck.slots[slot].card is not None:
            raise TableReject(party, f"slot {slot} is no closed card of its hand", "forged")
        return msg

    def _apply_broken(self, party: int, raw: tuple[object, ...]) -> list[TableEvent]:
        """The claim opens the slot to all with the author's proven token: a point that is no
        card ends the game (`_slot_broken`); a card means the claim was false."""
        tokens = self.check_broken(party, raw)
        slot = tokens.slots[0]
        try:
            deck_events = self.deck.begin(RevealOp(tokens.step, (slot,), by=party))
            deck_events += self.deck.receive(tokens)
        except DeckError as exc:
            raise TableReject(party, str(exc), "bad-proof") from exc
        if not any(isinstance(ev, dev.SlotBroken) for ev in deck_events):
            raise TableReject(party, f"slot {slot} opens to a card", "forged")
        return self._after_deck(deck_events)

    def _broken_may_come(self) -> bool:
        return (self.state is not None and self.deck.pending_op() is None
                and self.deck_broken is None and self.audit is None)

    def broken_claim(self) -> bytes | None:
        """This party's claim that a card of its hand opens to no card, when it holds one and
        the claim may come now (`owed` offers it, so the node sends it as it sends a deck
        step). Made once per slot, like a deck message."""
        private = [f for f in self.deck_faults if not f.public
                   and f.slot in self.hand_slots.get(self.my_seat, ())]
        if not private or self.party < 0 or not self._broken_may_come():
            return None
        slot = private[0].slot
        made = self._broken_made.get(slot)
        if made is None:
            tokens = self.deck.opening_tokens(f"broken:{slot}", slot)
            made = self._broken_made[slot] = codec.encode((BROKEN, _deck_bytes(tokens)))
        return made

    def announce_leave(self) -> bytes:
        """This party's announcement that it leaves the table (the leave itself comes between
        bouts), as an intent payload."""
        self._check_leaving(self.party)
        return codec.encode((LEAVE, None))

    def leave(self) -> bytes:
        """This party's leave step, due now, as an intent payload: the deck's leave step made
        on a copy of the deck (it begins only when the leave is committed)."""
        step = self._leave_step(self.party)
        self.deck.forget_made(step)
        twin = self.deck.fork()
        twin.begin(LeaveOp(step, self.party))
        msg = twin.owed()
        if msg is None:
            raise TableReject(self.party, "nothing to open: the cards are not dealt yet",
                              "wrong-phase")
        payload = codec.encode((LEAVE, _deck_bytes(msg)))
        raw = codec.decode(payload)
        assert isinstance(raw, tuple)
        self.check_leave(self.party, raw)
        return payload

    def vote(self, play_on: bool, *, timed_out: bool = False) -> bytes:
        """This party's choice after the game, as an intent payload. `timed_out`: the player
        did not choose in time and the node stops for it (the payload says so, for the
        transcript and every node's display)."""
        if self.party not in self.vote_due():
            raise TableReject(self.party, "no choice of the next game is due from this party",
                              "wrong-phase")
        if timed_out:
            if play_on:
                raise ValueError("a choice made on time's running out is a stop")
            return codec.encode((NEXT_GAME, False, VOTE_TIMED_OUT))
        return codec.encode((NEXT_GAME, play_on))

    def deck_due(self) -> tuple[int, ...]:
        """Parties whose deck message the table is waiting for."""
        p = self.deck.pending_op()
        if p is None or self.abandoned:  # (a forfeit ended the game: nothing more is due)
            return ()
        return tuple(sorted(set(p.due) - p.got))

    def sequencer(self) -> int:
        """The party that orders the next log entry: by the step or the turn (`_turn_sequencer`)
        unless, with three or more at the table, that party alone owes the deck step (or its
        leave step), or it is suspended by an abandonment claim; then the lowest other member,
        so that the others can still commit their claims against a party that withholds its
        step (it would never order them). Moves keep the engine's sequencer (its races are
        ordered by the one seat in every race); with two at the table nobody claims."""
        candidate = self._turn_sequencer()
        owed = self.deck_due() or self._leave_due_tuple()
        if len(self._at_table()) >= 3 and (candidate in self.abandon_claims
                                           or owed == (candidate,)):
            others = [p for p in self.members() if p != candidate]
            if others:
                return others[0]
        return candidate

    def _turn_sequencer(self) -> int:
        due = self.deck_due() or self.vote_due() or self._leave_due_tuple()
        if due:
            return due[0]
        if self.state is None:
            return 0
        return self._party(eng.sequencer(self.state))

    def waiting_for(self) -> tuple[int, ...]:
        """Parties that must act before the game can go on (for "waiting for X")."""
        if self.abandoned:
            return ()
        due = self.deck_due() or self.vote_due() or self._leave_due_tuple()
        if due or self.state is None or self.deck_broken is not None:
            return due
        if self._suit_due:
            return (self._announcer(),)
        return tuple(sorted({self._party(s) for s in eng.to_act(self.state) if s >= 0}))

    def _party(self, seat: int) -> int:
        """The party that holds `seat`, or (с болваном) for the dummy its controller's."""
        party = self.party_of_seat[seat]
        if party < 0:
            assert self.state is not None
            party = self.party_of_seat[self.state.controller]
        return party

    def _controls_dummy(self, party: int) -> bool:
        state = self.state
        return (state is not None and state.game.dummy >= 0 and party >= 0
                and self._party(state.game.dummy) == party)

    def state_hash(self) -> bytes:
        engine_hash = eng.state_hash(self.state) if self.state is not None else b""
        return hashlib.sha256(b"p2p-durak/table/v1" + engine_hash + self.digest).digest()

    def owed(self) -> bytes | None:
        """This party's deck message that is due now, as an intent payload (or, невидимый, the
        dealer's suit announcement)."""
        msg = self.deck.owed() if not self.abandoned else None
        if msg is None:
            if self._suit_due and self.party == self._announcer() and not self.abandoned:
                return codec.encode((ANNOUNCE, self._seen_bottom_suit()))
            return self.broken_claim()
        return codec.encode((DECK_STEP, _deck_bytes(msg)))

    def _announcer(self) -> int:
        assert self.state is not None
        return self._party(self.state.game.dealer)

    def _seen_bottom_suit(self) -> int:
        assert self.state is not None
        return self.state.game.suit[self.deck.seen[self.stock_slots[-1]]]

    def legal(self) -> tuple[eng.Action, ...]:
        """This party's legal moves now (none while a deck step is open, or a leave is due, or
        once a broken card has ended the game)."""
        if self.state is None or self.deck.pending_op() is not None \
                or self.leave_due() is not None or self.deck_broken is not None:
            return ()
        legal = eng.legal_actions(self.state, self.my_seat)
        if self._controls_dummy(self.party):  # с болваном: the dummy's throw-ins and passes
            legal += eng.legal_actions(self.state, self.state.game.dummy)
        return legal

    def play(self, action: eng.Action) -> bytes:
        """The intent payload for this party's own move: the action without the cards it takes
        from the hand, and each card's slot. The cards nobody has seen are opened by this
        party's tokens once the move is committed (`owed`), never before: a move that loses a
        race to an earlier one is skipped and shows nothing."""
        if self.state is None:
            raise TableReject(self.party, "the game has not started")
        if not self.acts_for(self.party, action):
            raise TableReject(self.party, "that is not this party's seat")
        if A.pick_position(action) >= 0:
            # оборотный: the play names a position; the deck opens its card once committed
            if action not in eng.legal_actions(self.state, self.my_seat):
                raise TableReject(self.party, "not a pick this seat may make now")
            return codec.encode((MOVE, eng.encode_action(action), ()))
        eng.apply(self.state, action)  # raises IllegalAction with its reason
        if action.kind in (A.CAPTURE, A.SEND_BACK) or not action.cards:
            # no card from a hand (a face-up table card, open to all, or none at all)
            return codec.encode((MOVE, eng.encode_action(action), ()))
        mine = self.hand_slots.get(action.seat, [])
        slots = []
        for card in action.cards:
            slot = next((s for s in mine if self._card_in(s) == card), None)
            if slot is None:
                raise TableReject(self.party, f"card {card} is not in a slot of this hand")
            slots.append(slot)
        return codec.encode((MOVE, eng.encode_action(_without_cards(action)), tuple(slots)))

    def _claims_for(self, seat: int, action: eng.Action) -> bool:
        """оборотный: whether `seat` makes this lowest-trump claim for its claimant, whose hand
        only the others see (`setup.claim_actor`)."""
        state = self.state
        return (state is not None and state.game.tables.blind and state.phase == Phase.CLAIM
                and action.kind in (A.CLAIM, A.NO_TRUMP) and state.actors == (seat,))

    def _holder_of(self, slot: int) -> int | None:
        """The seat whose hand holds the slot, if any."""
        zone = self.layout.zone_of(slot)
        return zone.seat if zone is not None and zone.kind == M.ZoneKind.HAND else None

    def _card_in(self, slot: int) -> int | None:
        public = self.deck.slots[slot].card
        return public if public is not None else self.deck.seen.get(slot)

    # ---- applying committed intents ------------------------------------------------------------

    def apply(self, party: int, payload: bytes) -> list[TableEvent]:
        """Apply one committed intent by `party`. Raises `TableReject` (nothing applied) when
        the intent is illegal: malformed, out of turn, a false proof, an illegal move."""
        try:
            raw = codec.decode(payload)
        except ProtocolError as exc:
            raise TableReject(party, f"undecodable intent: {exc}", "malformed") from exc
        if not (isinstance(raw, tuple) and raw
                and raw[0] in (DECK_STEP, MOVE, ANNOUNCE, NEXT_GAME, LEAVE, BROKEN, ABANDON)):
            raise TableReject(party, "unknown intent kind", "malformed")
        if raw[0] == ABANDON:
            events = self._apply_abandon(party, raw)
        elif raw[0] == DECK_STEP:
            events = self._apply_deck(party, raw)
        elif raw[0] == BROKEN:
            events = self._apply_broken(party, raw)
        elif raw[0] == ANNOUNCE:
            events = self._apply_announce(party, raw)
        elif raw[0] == NEXT_GAME:
            events = self._apply_vote(party, raw)
        elif raw[0] == LEAVE:
            events = self._apply_leave(party, raw)
        else:
            events = self._apply_move(party, raw)
        if self.abandon_claims and raw[0] != ABANDON:
            self._drop_stale_claims(party)
        self.digest = hashlib.sha256(self.digest + party.to_bytes(2, "big") + payload).digest()
        self.history += tuple(events)
        return events

    def _apply_deck(self, party: int, raw: tuple[object, ...]) -> list[TableEvent]:
        if len(raw) != 2:
            raise TableReject(party, "a deck step is [0, message]", "malformed")
        try:
            msg = deck_message(raw[1])
        except (DeckError, ValueError, TypeError, ProtocolError) as exc:
            raise TableReject(party, f"malformed deck message: {exc}", "malformed") from exc
        if msg.seat != party:
            raise TableReject(party, f"deck message claims seat {msg.seat}", "forged")
        try:
            deck_events = self.deck.receive(msg)
        except DeckError as exc:
            raise TableReject(party, str(exc), "bad-proof") from exc
        return self._after_deck(deck_events)

    # ---- abandonment: a party that stops answering forfeits the game -------------------------

    def abandon(self, party: int) -> bytes:
        """This party's claim that `party` abandoned the game (its node gave up waiting for it
        after the grace period), as an intent payload; TableReject where the log cannot tell
        that the table waits for it."""
        payload = codec.encode((ABANDON, party))
        self.check_abandon(self.party, (ABANDON, party))
        return payload

    def check_abandon(self, party: int, raw: tuple[object, ...]) -> int:
        """The party a well-formed claim by `party` names, if the claim may come now: a game is
        on (dealt, not yet audited), the named party is another member the table waits for
        (`waiting_for`: what the committed log itself says it owes), and it does not order the
        log (claims it would have to order never come); else TableReject."""
        if len(raw) != 2 or type(raw[1]) is not int:
            raise TableReject(party, "an abandonment claim is [6, party]", "malformed")
        target = raw[1]
        if self.state is None or self.audit is not None or self.series_over:
            raise TableReject(party, "no game is on to abandon", "wrong-phase")
        if self.state.phase in (Phase.DEAL, Phase.DEAL_SIXES):
            # before a card is dealt nobody stands to lose anything: a party that stops then
            # only ends the table
            raise TableReject(party, "no card is dealt yet", "wrong-phase")
        if len(self._at_table()) < 3:
            # the other party alone would decide, and could claim the moment the table waits
            # for the party: nothing in the log tells a silent party from an honest one
            raise TableReject(party, "with two at the table nobody can tell who went silent",
                              "wrong-phase")
        if party not in self.members():  # (a suspended party answers, it does not claim)
            raise TableReject(party, "only a party at the table claims", "forged")
        if target == party or target not in self._at_table():
            raise TableReject(party, f"party {target} is not another party at the table",
                              "malformed")
        if target not in self.waiting_for():
            raise TableReject(party, f"the table does not wait for party {target}",
                              "wrong-phase")
        if target == self.sequencer():
            raise TableReject(party, f"party {target} orders the log now", "wrong-phase")
        if party in self.abandon_claims.get(target, ()):
            raise TableReject(party, f"it claimed party {target} already", "wrong-phase")
        return target

    def _apply_abandon(self, party: int, raw: tuple[object, ...]) -> list[TableEvent]:
        """One claim. The first suspends the party (the entries that follow commit without its
        ack, as the table waits for it anyway); when every other member has claimed, it
        abandoned the game: it is the durak (with teams, its team), the others' results and
        the series score stand, and the table stops (nobody can open a card without its key,
        nor play the next game)."""
        target = self.check_abandon(party, raw)
        claims = tuple(sorted((*self.abandon_claims.get(target, ()), party)))
        self.abandon_claims[target] = claims
        # every other party, a suspended one too: with two silent, the log cannot tell whose
        # silence keeps the table waiting, and nobody forfeits
        if not {p for p in self._at_table() if p != target}.issubset(claims):
            return []
        assert self.state is not None
        self.abandon_claims = {}
        self.abandoned += (target,)
        seat = self.seat_of_party[target]
        self.state = eng.forfeit(self.state, (seat,))
        assert self.state.result is not None
        self.score = self.score.add(self.state.result, self.n_seats)
        self.series_over = True
        return [Forfeited((seat,), "abandoned", self.state.result),
                SeriesOver((), self.score, abandoned=(target,))]

    def _at_table(self) -> tuple[int, ...]:
        """The parties that have neither left nor abandoned the game (suspended or not)."""
        return tuple(p for p in range(self.n_parties) if p not in self.left
                     and p not in self.abandoned)

    def _drop_stale_claims(self, author: int) -> None:
        """A claimed party that answered (its intent was applied) did not abandon anything: it
        is a member again, and the claims against it lapse; so do claims against a party the
        table no longer waits for."""
        waiting = self.waiting_for()
        self.abandon_claims = {t: c for t, c in self.abandon_claims.items()
                               if t != author and t in waiting}

    def check_announce(self, party: int, raw: tuple[object, ...]) -> int:
        """The suit of a well-formed, due announcement by `party`; else TableReject."""
        if not self._suit_due or self.deck.pending_op() is not None:
            raise TableReject(party, "no suit announcement is due", "wrong-phase")
        if party != self._announcer():
            raise TableReject(party, "only the dealer's seat announces the trump suit", "forged")
        if len(raw) != 2 or type(raw[1]) is not int or not 0 <= raw[1] < 4:
            raise TableReject(party, "an announcement is [2, suit 0..3]", "malformed")
        return raw[1]

    def _apply_announce(self, party: int, raw: tuple[object, ...]) -> list[TableEvent]:
        """невидимый: the announced suit starts the announcer's proof that the bottom card is of
        it; the engine learns the suit only once the proof has verified (ClassShown)."""
        suit = self.check_announce(party, raw)
        assert self.state is not None
        game = self.state.game
        candidates = tuple(c for c in range(self.n_cards) if game.suit[c] == suit)
        self._suit_due = False
        self._awaiting = _Awaiting.SUIT_PROOF
        return self._begin(ClassOp("trump-suit", self.stock_slots[-1], party, candidates))

    # ---- the series ----------------------------------------------------------------------------

    def check_vote(self, party: int, raw: tuple[object, ...]) -> bool:
        """The choice of a well-formed, due vote by `party`; else TableReject."""
        if party not in self.vote_due():
            raise TableReject(party, "no choice of the next game is due from it", "wrong-phase")
        if len(raw) == 3 and raw[1] is False and raw[2] == VOTE_TIMED_OUT:
            return False
        if len(raw) != 2 or type(raw[1]) is not bool:
            raise TableReject(party, 'a choice of the next game is [3, bool] or '
                              '[3, false, "timeout"]', "malformed")
        return raw[1]

    def _apply_vote(self, party: int, raw: tuple[object, ...]) -> list[TableEvent]:
        """One party's choice after the game. When all have chosen: everyone plays on, and the
        next game begins; or someone stops, and so does the table (a series is played by the
        table that began it: a game for fewer players would be another table)."""
        self.votes[party] = self.check_vote(party, raw)
        if len(raw) == 3:
            self.vote_timeouts = (*self.vote_timeouts, party)
        if self.vote_due():
            return []
        stopped = tuple(p for p, play_on in sorted(self.votes.items()) if not play_on)
        if stopped:
            self.series_over = True
            return [SeriesOver(stopped, self.score, tuple(sorted(self.vote_timeouts)))]
        return self._next_game()

    def _next_game(self) -> list[TableEvent]:
        """The next game of the series: the engine's `next_game` (the durak deals, titles,
        first attacker), the same seats, and a deck of its own (new keys, a new shuffle)."""
        assert self.state is not None
        game = eng.next_game(self.state)
        self.game_number += 1
        number = self.game_number
        rng = self.rng if self.rng_for_game is None else self.rng_for_game(number)
        self.deck = LogDeckParty(series_game_id(self.game_id, number), max(self.party, 0),
                                 self.n_parties, self.n_cards, rng, observer=self.party < 0)
        self.deck.restore_made(self._made_before)
        self.state = None
        self.layout = Layout()
        self.claims, self.lead_checks = [], []
        self.audit = None
        self.deck_faults, self.deck_broken, self._broken_made = (), None, {}
        self._step_counter = 0
        self._awaiting = None
        self._suit_due = False
        self._move = None
        self._opened_before_shuffle, self._slot_gen = {}, {}
        self._closed_before_shuffle = {}  # (a ciphertext of the last game's deck means nothing)
        self._remasked, self._show_after_remask = [], None
        self.votes = {}
        self.vote_timeouts = ()
        self.titles = game.titles
        self.personal, self.ladder = game.personal, game.ladder  # Длинный дурак
        self._next = game
        return [NextGame(number, self.score), *self._begin(KeysOp("keys"))]

    def _apply_leave(self, party: int, raw: tuple[object, ...]) -> list[TableEvent]:
        """The party leaves: the deck's leave step (its tokens on every closed card: the cards
        only it could open, its hand, open to all), then the engine's `leave` with that hand,
        which goes to the discard. (A refused leave leaves this table half changed: the log
        applies intents to a copy, which it then throws away.)"""
        tokens = self.check_leave(party, raw)
        if tokens is None:
            self.leaving += (party,)
            return [LeaveAnnounced(party)]
        try:
            deck_events = self.deck.begin(LeaveOp(tokens.step, party))
            deck_events += self.deck.receive(tokens)
        except DeckError as exc:
            raise TableReject(party, str(exc), "bad-proof") from exc
        self.left += (party,)
        out: list[TableEvent] = [PartyLeft(party), *self._after_deck(deck_events)]
        seat = self.seat_of_party[party]
        out += self._learn_opened(deck_events, seat)
        state = self.state
        assert state is not None
        if (state.out >> seat) & 1:
            return out  # out of the game already: only its key share was still needed
        hand = self.hand_slots.get(seat, [])
        cards = [self.deck.slots[s].card for s in hand]
        if any(card is None for card in cards):
            raise TableReject(party, "the leave left a card of its hand closed", "bad-proof")
        try:
            return out + self._engine(A.leave(seat, tuple(c for c in cards if c is not None)))
        except eng.IllegalAction as exc:
            raise TableReject(party, exc.reason.en, exc.code) from exc

    def _learn_opened(self, deck_events: list[dev.Event], leaver: int) -> list[TableEvent]:
        """A leave also opens to all the cards of other hands that only the leaver's token
        still kept closed (круговой: cards it held once and passed on; с болваном: the dummy's
        cards its leaving controller was shown): every view learns where they are, as their
        holder's own view knows. Those of the dummy's its controller's view did not hold yet
        are told as `HandSeen`, which feeds its bot."""
        if self.party < 0 or self.state is None:
            return []
        opened: dict[int, list[int]] = {}
        for ev in deck_events:
            if isinstance(ev, dev.CardRevealed):
                holder = self._holder_of(ev.slot)
                if holder is not None and holder != leaver:
                    opened.setdefault(holder, []).append(ev.card_id)
        out: list[TableEvent] = []
        for holder, cards in sorted(opened.items()):
            known = self.state.hands[holder]
            if holder == self.state.game.dummy:
                new = tuple(c for c in cards if not (known >> c) & 1)
                if new:
                    out.append(HandSeen(holder, new))
            self.state = eng.learn(self.state, holder, tuple(cards))
        return out

    def _apply_move(self, party: int, raw: tuple[object, ...]) -> list[TableEvent]:
        if self.state is None or self.deck.pending_op() is not None \
                or self.deck_broken is not None:
            raise TableReject(party, "no move is possible while the deck is busy", "wrong-phase")
        if len(raw) != 3 or not isinstance(raw[2], tuple):
            raise TableReject(party, "a move is [1, action, openings]", "malformed")
        try:
            action = eng.decode_action(raw[1])
        except ValueError as exc:
            raise TableReject(party, f"malformed action: {exc}", "malformed") from exc
        if self.leave_due() is not None and action.kind != A.CONCEDE:
            raise TableReject(party, "no move while a party leaves the table", "wrong-phase")
        seat = self.seat_of_party[party]
        if not self.acts_for(party, action):
            raise TableReject(party, f"acts for seat {action.seat}, sits in seat {seat}", "forged")
        openings = raw[2]
        position = A.pick_position(action)
        if position >= 0:
            return self._apply_pick(party, action, position, openings)
        if action.kind == A.COVER:
            return self._apply_cover(party, seat, action, openings)
        if action.kind == A.EXCHANGE:
            return self._apply_exchange(party, seat, action, openings)
        slots = self._hand_play_slots(party, action, openings)
        if slots is None:  # no card from a hand: the move is whole as it stands
            return self._engine(self._checked(party, action))
        closed = tuple(sorted(s for s in slots if self.deck.slots[s].card is None))
        if not closed:  # every card is open to all already: the move is whole
            return self._engine(self._whole_move(party, action, slots))
        for slot in closed:
            # the mover's token is the one it lacks: the slot is a card of its own
            found = self.deck.slots[slot].view_of(party)
            if found is None or [s for s in self.deck.active if s not in found[1].tokens] \
                    != [party]:
                raise TableReject(party, f"party {party} cannot open slot {slot}", "forged")
        step = self._open_step(closed[0])
        self._move = (party, action, slots, step)
        return self._begin(RevealOp(step, closed, by=party))

    def check_move(self, party: int, action: eng.Action, openings: tuple[object, ...]) -> None:
        """Whether `party` may submit this move now, as far as its public form tells (the
        log's precheck; `_apply_move` checks the same and more); else TableReject."""
        state = self.state
        assert state is not None
        if A.pick_position(action) >= 0:
            self.check_pick(party, action)
            return
        if action.kind in (A.COVER, A.EXCHANGE):  # its public form, which names no card
            self._checked(party, action)
            return
        slots = self._hand_play_slots(party, action, openings)
        if slots is None:
            self._checked(party, action)
        elif all(self.deck.slots[s].card is not None for s in slots):
            self._whole_move(party, action, slots)

    def _checked(self, party: int, action: eng.Action) -> eng.Action:
        """`action` if the engine takes it now; else TableReject."""
        assert self.state is not None
        try:
            eng.apply(self.state, action)
        except eng.IllegalAction as exc:
            raise TableReject(party, exc.reason.en, exc.code) from exc
        return action

    def _hand_play_slots(self, party: int, action: eng.Action,
                         openings: tuple[object, ...]) -> tuple[int, ...] | None:
        """The slots of a move that plays cards from a hand (None for any other move, which
        names no slot: a face-up table card of a pre-game capture or щелковский's send-back is
        named as it is, open to all), checked as far as the move's public form allows: the
        slots are distinct slots of that hand, as many as the move takes, and the mover's seat
        may make such a move now (whether the cards make it legal is known once they are
        open: `_whole_move`)."""
        state = self.state
        assert state is not None
        if action.kind not in _HAND_PLAYS:
            if openings:
                raise TableReject(party, "that move takes no card from a hand", "malformed")
            return None
        if action.cards or not openings:
            raise TableReject(party, "a move names the slots of its cards, not the cards",
                              "malformed")
        slots = tuple(self._parse_slot(party, o) for o in openings)
        hand = self.hand_slots.get(action.seat, [])
        if len(set(slots)) != len(slots) or any(s not in hand for s in slots):
            raise TableReject(party, f"slots {list(slots)} are not in seat {action.seat}'s "
                              "hand", "forged")
        many = action.kind == A.LEAD or (action.kind == A.THROW
                                         and state.game.tables.multi_throw)
        if len(slots) != 1 and not many:
            raise TableReject(party, "that move plays one card", "malformed")
        if action.seat not in eng.to_act(state) and not self._claims_for(
                self.seat_of_party[party], action):
            raise TableReject(party, eng.Reason.NOT_YOUR_TURN.en, "NOT_YOUR_TURN")
        if action.kind == A.BEAT and not (0 <= action.target < len(state.table)
                                          and state.covers[action.target] == UNKNOWN):
            raise TableReject(party, "a beat names an uncovered card", "illegal")
        return slots

    def _whole_move(self, party: int, action: eng.Action,
                    slots: Sequence[int]) -> eng.Action:
        """The move with the cards its slots (all open to all now) hold, if the engine takes
        it; else TableReject: the cards do not make it legal."""
        cards = sorted(c for s in slots if (c := self.deck.slots[s].card) is not None)
        assert self.state is not None
        assert len(cards) == len(slots)
        whole = eng.Action(action.kind, action.seat, tuple(cards), action.target)
        try:
            eng.apply(self.state, whole)
        except eng.IllegalAction as exc:
            raise TableReject(party, f"{exc.reason.en} (the move's cards, opened: {cards})",
                              exc.code) from exc
        return whole

    def _apply_pick(self, party: int, action: eng.Action, position: int,
                    openings: tuple[object, ...]) -> list[TableEvent]:
        """оборотный: a play by position. The play must be open to the seat now and the position
        in its hand; the card there is opened to everyone by the tokens of a party that sees it
        (a RevealOp, proven), then the action is applied with it — a wrong card is penalised
        by the engine, not refused."""
        if openings:
            raise TableReject(party, "a pick by position has no openings", "malformed")
        slot = self.check_pick(party, action)
        card = self.deck.slots[slot].card
        if card is not None:  # a card he took from the table: everybody has seen it
            return self._engine(A.resolve_pick(action, card))
        self._pick = action
        self._awaiting = _Awaiting.PICK
        return self._begin(RevealOp(self._open_step(slot), (slot,)))

    def check_pick(self, party: int, action: eng.Action) -> int:
        """The slot a pick by `party` opens, if the play is open to its seat now and the
        position is in its hand; else TableReject (nothing applied)."""
        state = self.state
        seat = action.seat
        if state is None or not state.game.tables.blind:
            raise TableReject(party, "a pick by position is a move of оборотный", "malformed")
        if seat != self.seat_of_party[party]:
            raise TableReject(party, f"acts for seat {seat}", "forged")
        template = eng.Action(action.kind, seat, (), action.target)
        if template not in blind_templates(state, seat):
            raise TableReject(party, f"seat {seat} may not make that play now", "illegal")
        hand = self.hand_slots.get(seat, [])
        position = A.pick_position(action)
        if not 0 <= position < len(hand):
            raise TableReject(party, f"seat {seat}'s hand has no position {position}", "illegal")
        return hand[position]

    def acts_for(self, party: int, action: eng.Action) -> bool:
        """Whether `party` may submit `action`: its own seat's, or (оборотный) a claim it makes
        for the claimant on its right."""
        seat = self.seat_of_party[party]
        if self.state is not None and action.seat == self.state.game.dummy:
            return self._controls_dummy(party)  # с болваном: the controller plays the dummy
        return action.seat == seat or self._claims_for(seat, action)

    def _apply_cover(self, party: int, seat: int, action: eng.Action,
                     openings: tuple[object, ...]) -> list[TableEvent]:
        """верю не верю: a face-down cover names its slot and no card. Its author's machine
        applies it with the card (it knows its own slot), every other the public form; the slot
        goes to the table unopened, to be opened by its owner's tokens if doubted."""
        if action.cards or len(openings) != 1:
            raise TableReject(party, "a face-down cover names one slot and no card", "malformed")
        slot = self._parse_slot(party, openings[0])
        if slot not in self.hand_slots.get(seat, []):
            raise TableReject(party, f"slot {slot} is not in seat {seat}'s hand", "forged")
        local = action
        if seat == self.my_seat:
            card = self._card_in(slot)
            assert card is not None  # its own hand: every slot was shown to it
            local = A.cover(seat, card, action.target)
        assert self.state is not None
        try:
            eng.apply(self.state, local)
        except eng.IllegalAction as exc:
            raise TableReject(party, exc.reason.en, exc.code) from exc
        return self._engine(local, named=(slot,))

    def _apply_exchange(self, party: int, seat: int, action: eng.Action,
                        openings: tuple[object, ...]) -> list[TableEvent]:
        """покерный: an exchange names two slots of the defender's hand and no card; his own
        machine applies it with the cards, every other the public form. The slots go into the
        stock unopened (then shuffled with it, by every party, with proofs)."""
        if action.cards or len(openings) != 2:
            raise TableReject(party, "an exchange names two slots and no card", "malformed")
        slots: list[int] = []
        hand = self.hand_slots.get(seat, [])
        for opening in openings:
            slot = self._parse_slot(party, opening)
            if slot not in hand or slot in slots:
                raise TableReject(party, f"slot {slot} is not in seat {seat}'s hand", "forged")
            slots.append(slot)
        local = action
        if seat == self.my_seat:
            cards = [self._card_in(s) for s in slots]
            assert None not in cards  # its own hand: every slot was shown to it
            local = A.exchange(seat, *(c for c in cards if c is not None))
        assert self.state is not None
        try:
            eng.apply(self.state, local)
        except eng.IllegalAction as exc:
            raise TableReject(party, exc.reason.en, exc.code) from exc
        return self._engine(local, named=sorted(slots))

    def _parse_slot(self, party: int, opening: object) -> int:
        if type(opening) is not int or not 0 <= opening < self.n_cards:
            raise TableReject(party, f"a move names slots 0..{self.n_cards - 1}, not "
                              f"{opening!r}", "malformed")
        return opening

    def _open_step(self, slot: int) -> str:
        # отбойный: a reshuffled slot holds another card, opened in a step of its own
        gen = self._slot_gen.get(slot, 0)
        return f"open:{slot}:{gen}" if gen else f"open:{slot}"

    # ---- deck steps and engine chance ----------------------------------------------------------

    def _begin(self, op: Op) -> list[TableEvent]:
        return self._after_deck(self.deck.begin(op))

    def _after_deck(self, deck_events: list[dev.Event]) -> list[TableEvent]:
        out: list[TableEvent] = []
        learned: list[int] = []
        mine = self._hand(self.my_seat) if self.my_seat >= 0 else ()
        elsewhere: dict[int, list[int]] = {}  # круговой: seen, then passed on with a hand
        for ev in deck_events:
            # only cards of a hand: this party's own, or (круговой) one it saw and passed on;
            # невидимый: the dealer also sees the bottom card, which is in no hand
            if isinstance(ev, dev.CardSeen):
                if ev.slot in mine:
                    learned.append(ev.card_id)
                else:
                    holder = self._holder_of(ev.slot)
                    if holder is not None:
                        elsewhere.setdefault(holder, []).append(ev.card_id)
        if self.state is not None and self.party >= 0:
            caps = self._caps()
            for seat, cards in sorted(elsewhere.items()):
                self.state = eng.learn(self.state, seat, tuple(cards))
                if caps.blind_hands or FAMILY.plays_for(self.state, seat) != seat:
                    # (с болваном: the dummy's cards its controller is shown)
                    out.append(HandSeen(seat, tuple(cards)))
            # (a re-masked hand is shown again to its owner: only cards new to him are news)
            known = self.state.hands[self.my_seat]
            new = tuple(c for c in learned if not (known >> c) & 1)
            if new:
                self.state = eng.learn(self.state, self.my_seat, new)
                out.append(CardsLearned(new))
        for ev in deck_events:
            awaiting = self._awaiting
            if isinstance(ev, dev.KeysReady) and self._next is not None:
                game, self._next = self._next, None  # a later game: the seats stay
                out += self._deal(game)
            elif isinstance(ev, dev.KeysReady):
                out += self._begin(CoinOp("seating"))
            elif isinstance(ev, dev.RandomValue) and ev.step == "seating":
                out += self._seat(ev.value)
            elif isinstance(ev, dev.RandomValue) and isinstance(awaiting, DrawLot):
                self._awaiting = None
                among = awaiting.among
                out += self._chance(awaiting,
                                    among[coins.random_below(ev.value, len(among), "lot")])
            elif isinstance(ev, dev.RandomValue) and isinstance(awaiting, JointCoin):
                self._awaiting = None
                out += self._chance(awaiting, tuple(coins.random_permutation(
                    ev.value, awaiting.items, awaiting.step)))
            elif isinstance(ev, dev.ShuffleDone) and awaiting is _Awaiting.REMASK:
                self._awaiting = None
                out += self._after_remask()
            elif isinstance(ev, dev.ShuffleDone) and isinstance(awaiting, ShuffleDeck | Reshuffle):
                # the slots' new places come with the engine's chance action's movements
                self._awaiting = None
                out += self._chance(awaiting, 0)
            elif isinstance(ev, dev.CardRevealed) and awaiting is _Awaiting.PICK:
                assert self._pick is not None
                action, self._pick, self._awaiting = self._pick, None, None
                out += self._engine(A.resolve_pick(action, ev.card_id))
            elif isinstance(ev, dev.CardRevealed) and isinstance(awaiting, OpenCard):
                self._awaiting = None
                out += self._chance(awaiting, ev.card_id)
            elif isinstance(ev, dev.ClassShown) and awaiting is _Awaiting.SUIT_PROOF:
                self._awaiting = None
                assert self.state is not None
                request = FAMILY.chance(self.state)
                assert isinstance(request, ProveSuit)
                out += self._chance(request, self.state.game.suit[ev.candidates[0]])
            elif isinstance(ev, ShuffleUndone):
                self.undone += ((ev.seat, ev.step, ev.reason),)
            elif isinstance(ev, dev.SlotBroken):
                out += self._slot_broken(ev)
            elif isinstance(ev, dev.AuditDone):
                self.audit = self._check_claims(ev.cards)
                if ev.false_shuffle is not None:
                    self.audit = AuditFinished((self._false_shuffler(ev.false_shuffle),
                                                *self.audit.cheaters))
                assert self.state is not None
                out.append(self.audit)
                out += self._forfeit_for_cheating(self.audit)
                if self.state.result is None:  # a broken deck, and nobody could be named
                    self.series_over = True
                    continue
                self.score = self.score.add(self.state.result, self.n_seats)
                if self.left:  # the series needs everyone who began it
                    self.series_over = True
                    out.append(SeriesOver(self.left, self.score))
            elif isinstance(ev, dev.StepDone) and self._move is not None \
                    and ev.step == self._move[3]:
                # the mover opened its cards: the move is whole, and applied if they make it
                # legal
                party, action, slots, _ = self._move
                self._move = None
                try:
                    whole = self._whole_move(party, action, slots)
                except TableReject as exc:
                    # the cards do not make the move legal (only a cheat commits such a
                    # move): they are open to all now, at its author's cost; the move is void
                    # and the seat moves again
                    self.voided += ((party, exc.reason),)
                    continue
                out += self._engine(whole)
            elif isinstance(ev, dev.StepDone) and self.state is not None:
                out += self._next_chance()
        return out

    def _slot_broken(self, ev: dev.SlotBroken) -> list[TableEvent]:
        """A slot opened to a point that is no card. Its shuffler is named, never the party
        whose (proven) tokens opened it. Seen privately by its viewer: noted, and the viewer
        shows it to all as soon as the deck is idle (`broken_claim`); opened to all: the game
        cannot go on and is audited at once, the audit opening every shuffle to name the false
        one."""
        error = ev.error
        fault = DeckBroken(ev.slot, error.seat, error.step, error.reason, ev.public)
        self.deck_faults += (fault,)
        if ev.public and self.deck_broken is None:
            self.deck_broken = fault
        return [fault]

    def _seat(self, seed: bytes) -> list[TableEvent]:
        n = self.n_parties
        order = coins.random_permutation(seed, n, "seating")  # seat i is party order[i]
        self.party_of_seat = tuple(order)
        self.seat_of_party = tuple(order.index(p) for p in range(n))
        if self.n_seats > n:
            # с болваном: the dealer is drawn among all seats; the dummy sits on his left and
            # the parties fill the other seats in the seating order
            dealer = coins.random_below(seed, self.n_seats, "dealer")
            dummy = (dealer + 1) % self.n_seats
            players = [s for s in range(self.n_seats) if s != dummy]
            by_seat = [-1] * self.n_seats
            for i, seat in enumerate(players):
                by_seat[seat] = order[i]
            self.party_of_seat = tuple(by_seat)
            self.seat_of_party = tuple(players[order.index(p)] for p in range(n))
            return self._deal(eng.make_game(self.rules, self.n_seats, dealer))
        dealer = coins.random_below(seed, n, "dealer")
        if self.titles:
            dealer = self.titles.index(GOVNO)
            game = eng.make_game(self.rules, n, dealer, dealer, 1, self.titles)
        elif self.personal:
            game = eng.make_game(self.rules, n, dealer, None, 1, personal=self.personal,
                                 ladder=self.ladder)
        else:
            game = eng.make_game(self.rules, n, dealer)
        return self._deal(game)

    def _deal(self, game: eng.Game) -> list[TableEvent]:
        """The seats are known: the engine's game begins (with everyone's shuffle, or first
        Длинный's sixes, as the engine's chance requests say)."""
        self.state = eng.new_game(game, None)
        self.layout = Layout.of(FAMILY.initial_layout(self.state))
        return [Seated(self.seat_of_party, game.dealer, game), *self._next_chance()]

    def _caps(self) -> Capabilities:
        assert self.state is not None
        return FAMILY.capabilities(self.state.game.rules)

    def _chance(self, request: ChanceRequest,
                value: int | tuple[int, ...]) -> list[TableEvent]:
        """The deck's answer to a chance request, as the engine's chance actions."""
        assert self.state is not None
        actions = FAMILY.chance_actions(self.state, request, value)
        out: list[TableEvent] = []
        for i, action in enumerate(actions):
            out += self._engine(action, then=i == len(actions) - 1)
        return out

    def _engine(self, action: eng.Action, named: Sequence[int] = (),
                then: bool = True) -> list[TableEvent]:
        """Apply an engine action, move the slots as its card movements say (`named`: the
        face-down slots the action named), show the cards they bring to whom they must, then
        (`then`) start whatever deck step the new state needs."""
        assert self.state is not None
        before = self.state
        self.state, events = eng.apply(before, action)
        out: list[TableEvent] = [Moved(action.seat, action, events)]
        for ev in events:
            self._note_for_audit(before, ev)
        grants, learned, handed = self._follow(before, action, events, list(named))
        if learned:
            out.append(CardsLearned(learned))
        if handed:
            # a hand passed to this seat (круговой): the cards of it this party has seen
            # before (its own, come round again, or drawn and passed on) are not shown again
            known = eng.cards_of(self.state.hands[self.my_seat])
            if known:
                out.append(CardsLearned(known))
        if grants:
            self._step_counter += 1
            step = "deal" if action.kind == A.DEAL else f"draw:{self._step_counter}"
            if self._remask_due():
                # верю не верю: the hands to re-mask first; the draws are shown with them
                self._show_after_remask = (step, grants)
                out += self._remask(self._remask_due()[0])
            else:
                out += self._begin(ShowOp(step, grants))
        return out + self._next_chance() if then else out

    def _follow(self, before: eng.State, action: eng.Action, events: tuple[E.Event, ...],
                named: list[int]) -> tuple[tuple[tuple[int, tuple[int, ...]], ...],
                                           tuple[int, ...], bool]:
        """Move the slots as the transition's card movements say. Returns the private shows
        to make (each slot with the parties that must see it and have not: a card open to all
        needs none) and the own cards this party's view learns without a deck step: a card
        shown to it before, or open to all, that a show brings into its hand (невидимый's
        bottom card drawn by the dealer who saw it; a face-down cover taken that was a card
        taken face up before); and whether another seat's hand was passed to this party's."""
        state = self.state
        assert state is not None
        viewers: dict[int, set[int]] = {}
        learned: list[int] = []
        arrived: list[int] = []
        handed = False
        known = state.hands[self.my_seat] if self.my_seat >= 0 else 0
        for movement in FAMILY.movements(before, action, events, state):
            for arrival in self.layout.follow(movement, self._open_card, named):
                seat = arrival.zone.seat
                if arrival.seen in (M.Seen.OWNER, M.Seen.OTHERS):
                    party = self._party(seat)
                    parties = (party,) if arrival.seen == M.Seen.OWNER else \
                        tuple(p for p in self.deck.active if p != party)
                    for slot in arrival.slots:
                        st = self.deck.slots[slot]
                        for p in parties:
                            if st.card is None and p not in st.viewers:
                                viewers.setdefault(slot, set()).add(p)
                if arrival.seen == M.Seen.OWNER and seat == self.my_seat and self.party >= 0:
                    arrived += arrival.slots
                    source = arrival.source
                    handed |= source is not None and source.kind == M.ZoneKind.HAND \
                        and source.seat != seat
        if arrived:
            # (a slot that came and went on in the same transition is not this party's)
            mine = self._hand(self.my_seat)
            for slot in arrived:
                card = self._card_in(slot)
                if slot in mine and card is not None and not (known >> card) & 1 \
                        and card not in learned:
                    learned.append(card)
        if learned:
            self.state = eng.learn(state, self.my_seat, tuple(learned))
        return (tuple((slot, tuple(sorted(v))) for slot, v in sorted(viewers.items())),
                tuple(learned), handed)

    def _open_card(self, slot: int) -> int | None:
        return self.deck.slots[slot].card

    def _note_for_audit(self, before: eng.State, ev: E.Event) -> None:
        """What the end-of-game audit must check of a transition a partial view took on
        trust: each lowest-card claim against the claimant's hand then, and (занудный) a lead
        of the highest rank in hand."""
        if isinstance(ev, E.Claimed):
            hand = self._hand(ev.seat)
            before_shown: tuple[int, ...] = ()
            jokers = lowest = False
            if len(before.claims) >= len(before.game.claim_seats):
                round_ = claim_round(before)
                before_shown = round_.shown.get(ev.seat, ())
                jokers = round_.round == JOKER_ROUND
                lowest = round_.round == LOWEST_ROUND
            self.claims.append(_Claim(ev.seat, ev.card, hand, claim_suit(before, ev.seat),
                                      before_shown, jokers, before.actors[0], lowest))
        elif isinstance(ev, E.Led):
            t = before.game.tables
            if t.lead_highest and (before.bout == 0 or not t.lead_first_only):
                self.lead_checks.append((ev.seat, ev.cards[0], self._hand(ev.seat)))

    def _slot_at(self, zone: M.Zone, position: int, label: int = -1) -> int:
        if label >= 0:
            return self.layout.labelled(zone, label)
        slots = self.layout.slots(zone)
        return slots[position]

    def _step_name(self, step: str, numbering: Numbering) -> str:
        if numbering == Numbering.EACH:
            self._step_counter += 1
            return f"{step}:{self._step_counter}"
        if numbering == Numbering.DECK:
            return f"{step}:{len(self.deck.finished_steps)}"
        return step

    def _next_chance(self) -> list[TableEvent]:
        """Start the deck step that the engine's next chance request needs, if any."""
        state = self.state
        assert state is not None
        if self.deck.pending_op() is not None:
            return []
        if self.deck_broken is not None:
            # a public card opened to no card: the game cannot go on; every key is published
            # at once (nothing is left to hide) and the audit names the false shuffle
            return [] if "audit" in self.deck.finished_steps else self._begin(AuditOp("audit"))
        due = self._remask_due()
        if due:
            return self._remask(due[0])
        request = FAMILY.chance(state)
        if request is None:
            return []
        if isinstance(request, ProveSuit):
            # невидимый: the dealer's seat is shown the bottom card, then announces its suit
            if isinstance(self._awaiting, ProveSuit):  # the show is done
                self._awaiting = None
                self._suit_due = True
                return []
            if self._suit_due or self._awaiting is _Awaiting.SUIT_PROOF:
                return []
            self._awaiting = request
            slot = self._slot_at(request.zone, request.position)
            return self._begin(ShowOp(request.step, ((slot, (self._party(request.seat),)),)))
        if isinstance(request, OpenCard):
            slot = self._slot_at(request.zone, request.position, request.label)
            public = self.deck.slots[slot].card
            if public is not None:  # a card taken face up before: its slot is open already
                return self._chance(request, public)
            by = None if request.by == M.EVERY_SEAT else self._party(request.by)
            self._awaiting = request
            return self._begin(RevealOp(self._step_name(request.step, request.numbering),
                                        (slot,), by=by))
        if isinstance(request, DrawLot):
            self._awaiting = request
            return self._begin(CoinOp(self._step_name(request.step, Numbering.EACH)))
        if isinstance(request, JointCoin):
            self._awaiting = request
            return self._begin(CoinOp(request.step))
        if isinstance(request, ShuffleDeck):
            self._awaiting = request
            return self._begin(ShuffleOp(request.step, tuple(range(self.n_cards)),
                                         request.blocks, request.initial))
        if isinstance(request, Reshuffle):
            slots: list[int] = []
            for zone, n in request.parts:
                part = self.layout.slots(zone)
                slots += part if n < 0 else part[:n]
            self._before_reshuffle(slots)
            self._awaiting = request
            return self._begin(ShuffleOp(self._step_name(request.step, Numbering.EACH),
                                         tuple(sorted(slots))))
        if request.step not in self.deck.finished_steps:
            return self._begin(AuditOp(request.step))
        return []

    # ---- верю не верю: a hand with a card known to all is re-masked --------------------------

    def _remask_due(self) -> list[int]:
        """верю не верю, between bouts: the seats whose hand of two cards or more holds a slot
        open to all (a card taken face up, a doubted cover, the trump card drawn or turned
        from a hand). A face-down cover names its slot, so from such a slot anybody would know
        the card; once the hand is re-masked and permuted nobody but its owner can tell which
        slot holds it. (A hand of one known card has nothing to hide.)"""
        state = self.state
        if state is None or state.phase != Phase.LEAD or not self._caps().remask_open_hands:
            return []
        # (a leaver's hand, opened by its leave, goes to the discard: its party shuffles no more)
        return [seat for seat, slots in sorted(self.hand_slots.items()) if len(slots) >= 2
                and self._party(seat) in self.deck.active
                and any(self.deck.slots[s].card is not None for s in slots)]

    def _remask(self, seat: int) -> list[TableEvent]:
        """The owner's party alone re-masks and permutes every slot of his hand, with a shuffle
        proof that every party checks (masking needs only the joint public key; his secret
        permutation is what unlinks the slots from the cards, and a permutation chosen by any
        other party would be known to that party)."""
        slots = tuple(sorted(self.hand_slots[seat]))
        self._before_reshuffle(slots)
        self._remasked.append(seat)
        self._awaiting = _Awaiting.REMASK
        self._step_counter += 1
        return self._begin(ShuffleOp(f"remask:{self._step_counter}", slots,
                                     by=self._party(seat)))

    def _after_remask(self) -> list[TableEvent]:
        """A hand is re-masked: the next one, or every re-masked hand is shown to its owner
        (the other parties' proven key shares, as for a draw), with the bout's draws."""
        due = self._remask_due()
        if due:
            return self._remask(due[0])
        grants: tuple[tuple[int, tuple[int, ...]], ...] = ()
        if self._show_after_remask is None:
            self._step_counter += 1
            step = f"show:{self._step_counter}"
        else:
            step, grants = self._show_after_remask
        viewers: dict[int, set[int]] = {slot: set(parties) for slot, parties in grants}
        for seat in self._remasked:
            for slot in self.hand_slots[seat]:
                viewers.setdefault(slot, set()).add(self._party(seat))
        self._remasked, self._show_after_remask = [], None
        return self._begin(ShowOp(step, tuple((slot, tuple(sorted(v)))
                                              for slot, v in sorted(viewers.items()))))

    def _before_reshuffle(self, slots: Sequence[int]) -> None:
        """What the claim audit must still know of a claimant's hand once a reshuffle changes
        these slots: an open card as it was, a closed one as its ciphertext (opened with every
        key at the audit); and a new opening step for each. Only the first reshuffle of a slot
        counts (верю не верю re-masks a hand again and again: a card opened in the slot since
        is not the one it held when the claims were made)."""
        for slot in slots:
            st = self.deck.slots[slot]
            if slot in self._opened_before_shuffle or slot in self._closed_before_shuffle:
                pass
            elif st.card is not None:
                self._opened_before_shuffle[slot] = st.card
            else:
                self._closed_before_shuffle[slot] = (st.base.ct, dict(st.base.tokens))
            self._slot_gen[slot] = self._slot_gen.get(slot, 0) + 1

    def _card_then(self, slot: int, cards: Sequence[int]) -> int | None:
        """The card a slot held before any reshuffle changed it (the audit's view); None when it
        cannot be known: a party that left since held a layer of it and had not published its
        token on it (its own card then: its key went with it)."""
        if slot in self._opened_before_shuffle:
            return self._opened_before_shuffle[slot]
        closed = self._closed_before_shuffle.get(slot)
        if closed is None:
            return cards[slot]
        ct, tokens = closed
        x = sum(self.deck.audit_secrets[s] for s in self.deck.active if s not in tokens)
        opened = group.sub(unmask(ct, list(tokens.values())), group.mul(x % group.ORDER, ct.c1))
        return self.deck.codec.decode(opened)

    # ---- the end-of-game audit -----------------------------------------------------------------

    def _forfeit_for_cheating(self, audit: AuditFinished) -> list[TableEvent]:
        """A seat the audit caught lying loses the game (with teams, its team): the claim
        decided who led first, so the play that followed cannot stand as it went. Every node
        reaches this from the same committed keys, so the result and the series score change
        the same way everywhere. (The author of a false shuffle is such a seat too: a game a
        broken card ended is his forfeit; −1, a false shuffle nobody could be named for,
        forfeits nobody.)"""
        assert self.state is not None
        seats = tuple(sorted({seat for seat, _ in audit.cheaters if seat >= 0}))
        if not seats:
            return []
        self.state = eng.forfeit(self.state, seats)
        assert self.state.result is not None
        return [Forfeited(seats, "cheated", self.state.result)]

    def _false_shuffler(self, false_shuffle: DeckError) -> tuple[int, str]:
        """The audit's entry for the author of the false shuffle the deck's audit found: its
        engine seat (−1 if none could be named) and what was false."""
        party = false_shuffle.seat
        seat = -1 if party is None or not self.seat_of_party else self.seat_of_party[party]
        return seat, f"deck step {false_shuffle.step!r}: {false_shuffle.reason}"

    def _check_claims(self, cards: Sequence[int]) -> AuditFinished:
        """With every key public, check what the engine had to take on trust: that each lowest-
        trump claim was the claimant's lowest trump, and that "no trump" was true. A slot that
        opens to no card (`NO_CARD`) does not stop the audit: the claims are checked on the
        other cards."""
        assert self.state is not None
        game = self.state.game
        cheaters: list[tuple[int, str]] = []
        # without trumps (бескозырный) every seat shows its lowest card of any suit
        any_card = game.rules.first_attacker_first_game == "lowest_card"
        for claim in self.claims:
            then = [self._card_then(s, cards) for s in claim.slots]
            if None in then:
                continue  # its claimant left after his hand was re-masked: not checkable
            held = [c for c in then
                    if c is not None and c != dev.NO_CARD and c not in claim.shown_before]
            trump_cards = game.trump_mask(claim.trump)
            if claim.jokers:
                trump_cards = sum(1 << c for c in held if game.deck.faces[c].kind in JOKERS)
            if claim.lowest:  # SP5: nobody showed a trump, so the lowest card of any suit
                trump_cards = sum(1 << c for c in held if game.rank[c] >= 0)
            trumps = sorted((game.rank[c], c) for c in held
                            if any_card or (trump_cards >> c) & 1)
            # оборотный: the seat that claimed for him answers for the claim
            by = claim.by if claim.by >= 0 else claim.seat
            if claim.card < 0 and trumps:
                cheaters.append((by, "said he had no card of rank while holding one"
                                 if claim.lowest else "said «no trump» while holding one"))
            elif claim.card >= 0 and (claim.card not in held or not trumps
                                      or trumps[0][0] != game.rank[claim.card]):
                cheaters.append((by, "showed a card that was not the lowest"
                                 if any_card or claim.lowest
                                 else "showed a trump that was not the lowest"))
        for seat, led, slots in self.lead_checks:
            known = [cards[s] for s in slots if cards[s] != dev.NO_CARD]
            if known and game.rank[led] != max(game.rank[c] for c in known):
                cheaters.append((seat, "led a card below the highest rank in hand"))
        return AuditFinished(tuple(cheaters))

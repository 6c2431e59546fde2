"""Events: what an applied action caused, for logs, the UI and card-counting bots."""

from __future__ import annotations

from typing import NamedTuple


class Dealt(NamedTuple):
    dealer: int
    per_seat: tuple[int, ...]


class TrumpRevealed(NamedTuple):
    card: int  # NO_CARD (-2) when the trump is a fixed suit or there is none
    suit: int


class TrumpReinserted(NamedTuple):
    """A joker turned as trump goes back into the middle of the stock (SP18), at `position`
    (0 = the top); the next top card is turned instead."""
    card: int
    position: int
class TrumpNamed(NamedTuple):
    seat: int  # Король-говно: the King
    suit: int


class HiddenTrumpRevealed(NamedTuple):
    card: int
    suit: int


class TrumpSwapped(NamedTuple):
    """козырной: the bout's last card went under the stock as the new trump card; the old
    trump card went to the discard."""

    card: int
    old_card: int
    suit: int


class PersonalTrump(NamedTuple):
    """двухкозырной: a card turned face up for `seat`; its suit is his own trump."""

    seat: int
    card: int
    suit: int


class SixDealt(NamedTuple):
    """Длинный дурак: `seat` is dealt the six of `suit`, his own trump for the match."""

    seat: int
    suit: int


class Claimed(NamedTuple):
    seat: int
    card: int  # -1: "no trump"


class FirstAttacker(NamedTuple):
    seat: int
    by_lot: bool


class BoutStarted(NamedTuple):
    attacker: int
    defender: int
    limit: int  # attack cards this bout may have at most (before the defender cap)


class Led(NamedTuple):
    seat: int
    cards: tuple[int, ...]


class StockLeadDeclared(NamedTuple):
    """армянский: `seat` leads the top stock card unseen; its reveal follows."""

    seat: int


class StockLed(NamedTuple):
    """армянский: the top stock card, revealed to everyone, is `seat`'s lead."""

    seat: int
    card: int


class ThrewIn(NamedTuple):
    seat: int
    card: int


class Beat(NamedTuple):
    seat: int
    card: int
    attack_card: int


class Transferred(NamedTuple):
    seat: int
    card: int
    new_defender: int
    shown: bool  # True: by showing a trump, the card stays in hand


class Covered(NamedTuple):
    """верю не верю: `seat` laid a card face down on the attack card at index `target`;
    `card` is FACE_DOWN (-3) where this state does not know it."""

    seat: int
    target: int
    attack_card: int
    card: int


class Doubted(NamedTuple):
    """верю не верю: `seat` said «сомневаюсь» about the cover of the attack card at index
    `target`."""

    seat: int
    target: int
    attack_card: int


class DoubtSettled(NamedTuple):
    """верю не верю: the doubted cover opened as `card`; `beats`: it beat the attack card, so
    the doubter takes the table, else the defender does (`taker`)."""

    doubter: int
    defender: int
    card: int
    attack_card: int
    beats: bool
    taker: int


class Buried(NamedTuple):
    """верю не верю: a defended bout's `n` face-down covers went to the discard unseen;
    `cards`: those this state knows."""

    n: int
    cards: tuple[int, ...]


class Exchanged(NamedTuple):
    """покерный: the defender gave `n` cards back (`given`: those this state knows) and drew
    the stock's top `n` (`cards`: those this state knows)."""

    seat: int
    n: int
    given: tuple[int, ...]
    cards: tuple[int, ...]


class SentBack(NamedTuple):
    """щелковский (`over_limit_policy: defender_chooses`): the defender sent `card`, thrown in
    beyond the bout's limit, back into the hand of `owner`, who threw it in."""

    seat: int
    card: int
    owner: int


class StockShuffled(NamedTuple):
    """покерный: the stock's face-down part was shuffled (the given cards in it)."""

    stock: int  # its size


class TakeDeclared(NamedTuple):
    seat: int


class Passed(NamedTuple):
    seat: int


class Discarded(NamedTuple):
    cards: tuple[int, ...]


class Misplayed(NamedTuple):
    """оборотный: a card picked blind did not fit (`kind`: the THROW, BEAT or TRANSFER it was
    meant for; `target`: the attack card's index for a beat, else -1). It stays on the table
    and the penalised seat takes the table (a `Took` follows)."""

    seat: int
    card: int
    kind: int
    target: int


class Took(NamedTuple):
    seat: int
    cards: tuple[int, ...]


class Drew(NamedTuple):
    seat: int
    n: int
    cards: tuple[int, ...]  # the cards this state knows (all of them in a full state)


class Unlocked(NamedTuple):
    """магаданский: `n` locked cards of `seat` became usable (into his hand)."""

    seat: int
    n: int
    cards: tuple[int, ...]  # the cards this state knows (all of them in a full state)
class HandsRotated(NamedTuple):
    seats: tuple[int, ...]  # круговой: each of these passed his hand to the next in the list
    # (the last to the first)


class Rebounded(NamedTuple):
    """отбойный: a defended bout's cards were shuffled back into the stock."""

    cards: tuple[int, ...]
    stock: int  # the stock's size after it


class TurnedUp(NamedTuple):
    """A pre-game phase: the top stock card turned face up for everyone, on `seat`'s turn
    (-1: a card of the layout, before anybody's turn)."""

    seat: int
    card: int


class Laid(NamedTuple):
    """A pre-game phase: `seat`'s turned card takes nothing and stays face up on the table."""

    seat: int
    card: int


class Captured(NamedTuple):
    """A pre-game phase: `seat`'s turned card took the face-up `target`; both go to his hand."""

    seat: int
    card: int
    target: int


class Swept(NamedTuple):
    """A pre-game phase: `seat` takes these face-up cards into his hand (наборный: the last
    card and all left on the table)."""

    seat: int
    cards: tuple[int, ...]


class Placed(NamedTuple):
    """крестовый's ladder deal: `card` laid face up on `onto`'s pile (`seat` turned it; -1: the
    first card of each pile); the pile's card below it goes into that player's hand."""

    seat: int
    card: int
    onto: int


class ChainPassed(NamedTuple):
    """крестовый: the defender who did not beat took the first card of the move (`took`) and
    laid `card` of his own for the next player (`to`) to beat."""

    seat: int
    card: int
    took: int
    to: int


class PlayerOut(NamedTuple):
    seat: int


class Left(NamedTuple):
    """The seat left the table between bouts: out of the game, neither winner nor durak; its
    hand (`cards`, shown to all as it went) lies in the discard."""

    seat: int
    cards: tuple[int, ...]


class Conceded(NamedTuple):
    """The seat gave the game up (its turn timer ran out at a "lose" table, or it resigned)."""

    seat: int


class GameOver(NamedTuple):
    durak: tuple[int, ...]
    draw: bool
    pogony: int
    scores: tuple[int, ...] = ()  # a scored game's count per seat
    winners: tuple[int, ...] = ()  # фигурный: the top scorers


Event = (Dealt | TrumpRevealed | TrumpReinserted | TrumpNamed | HiddenTrumpRevealed
         | TrumpSwapped | PersonalTrump | SixDealt | Claimed | FirstAttacker | BoutStarted | Led
         | ThrewIn | StockLeadDeclared | StockLed | Beat | Covered | Doubted | DoubtSettled | Buried
         | Exchanged | StockShuffled | SentBack
         | Transferred | TakeDeclared | Passed | Discarded | Misplayed | Took | Drew | Unlocked
         | Rebounded | HandsRotated | TurnedUp | Laid | Captured | Swept | Placed | ChainPassed
         | PlayerOut | Left | Conceded | GameOver)

EventSink = list[Event] | None
"""Where transitions append their events; None when the caller (a simulation) wants none."""

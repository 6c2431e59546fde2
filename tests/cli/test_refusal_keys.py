"""A key the rules refuse shows exactly what is wrong and changes nothing (issue #6: «An action
the engine refuses shows its reason and changes nothing»), through the real application (pipe
input, dummy output) at fixed engine situations: T while attacking, P while defending, R with
no transfer in the rules or with a card of another rank, R when the next defender cannot take
the cards on, B with a card that does not beat (lower, another suit, not a trump), a throw-in
of a rank not on the table, past the bout's limit or the defender's cards, by a seat that is
not the defender's neighbour where only neighbours throw in, and a lead out of turn.

The engine's side of each (the rule sentences, the exact codes) is in
tests/engine/test_refusal_reasons.py; here the point is that the player sees the specific
text in his language, and that the session's state is the one it was."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
import trio
from fixed_session import FixedBackend, FixedSession
from table_states import find_state, snapshot_of
from ui_support import Ui, running_ui

from p2p_durak.cli.guest import run_guest
from p2p_durak.cli.i18n import Look, Messages
from p2p_durak.cli.table_ui import DIGIT_KEYS, TableUi
from p2p_durak.engine import UNKNOWN, Reason, RuleSet, State, cards_of
from p2p_durak.engine.errors import Why
from p2p_durak.engine.presets import get_preset
from p2p_durak.engine.state import BOUT, LEAD

guest = pytest.mark.trio(run=run_guest)
RIGHT, HOME = "\x1b[C", "\x1b[H"


def _hand(state: State) -> list[int]:
    ui = TableUi()
    ui.update(snapshot_of(state))
    return ui.hand()


def _open(state: State) -> list[int]:
    return [i for i, c in enumerate(state.covers) if c == UNKNOWN]


def _defending(state: State) -> bool:
    return (state.phase == BOUT and state.defender == 0 and not state.taking
            and bool(_open(state)))


def _attacking(state: State) -> bool:
    return (state.phase == BOUT and state.attacker == 0 and state.defender != 0
            and not state.taking and bool(_open(state)))


def _beat_case(kind: str) -> Callable[[State], int | None]:
    """The hand position of a card that does not beat the only open attack card, by `kind`:
    lower (same suit), suit (another suit, no trump involved), trump (the attack is a trump)."""
    def position(state: State) -> int | None:
        if not _defending(state) or len(_open(state)) != 1:
            return None
        game, trump = state.game, state.trump
        attack = state.table[_open(state)[0]]
        for p, card in enumerate(_hand(state)):
            same = game.suit[card] == game.suit[attack]
            lower = game.rank[card] < game.rank[attack]
            if kind == "lower" and same and lower and game.suit[card] != trump:
                return p
            if kind == "suit" and not same and trump not in (game.suit[card],
                                                            game.suit[attack]):
                return p
            if kind == "trump" and game.suit[attack] == trump and game.suit[card] != trump:
                return p
        return None
    return position


def _thrower_card(state: State, *, on_table: bool) -> int | None:
    """The position of a card of mine whose rank is (or is not) on the table."""
    ranks = {state.game.rank[c] for c in state.table}
    for p, card in enumerate(_hand(state)):
        if (state.game.rank[card] in ranks) == on_table:
            return p
    return None


def _throw_past(limit_reached: bool) -> Callable[[State], int | None]:
    def position(state: State) -> int | None:
        if state.phase != BOUT or state.defender == 0 or 0 in state.actors:
            return None
        t = state.game.tables
        limit = t.first_limit if state.bout == 0 else t.later_limit
        full = len(state.table) >= limit
        over = state.covers.count(UNKNOWN) >= state.hand_size(state.defender)
        if (full, over) != (limit_reached, not limit_reached) or state.passed & 1:
            return None
        return _thrower_card(state, on_table=True)
    return position


def _not_neighbour(state: State) -> int | None:
    if state.phase != BOUT or state.defender != 2 or 0 in state.actors or state.passed & 1 \
            or not _open(state) or len(state.table) >= 5:
        return None
    return _thrower_card(state, on_table=True)


def _rank_not_on_table(state: State) -> int | None:
    if state.phase != BOUT or state.defender == 0 or 0 not in state.actors:
        return None
    return _thrower_card(state, on_table=False)


def _lead_out_of_turn(state: State) -> int | None:
    return 0 if state.phase == LEAD and state.attacker != 0 and state.hands[0] else None


def _transfer_wrong_rank(state: State) -> int | None:
    if not _defending(state) or len(_open(state)) != len(state.table):
        return None
    rank = state.game.rank[state.table[0]]
    if any(state.game.rank[c] == rank for c in cards_of(state.hands[0])):
        return None  # (R would try the one card that can)
    return 0


def _transfer_no_room(state: State) -> int | None:
    if not _defending(state) or len(_open(state)) != len(state.table) or len(state.table) > 3:
        return None
    rank = state.game.rank[state.table[0]]
    if state.hand_size(1) >= len(state.table) + 1:
        return None
    for p, card in enumerate(_hand(state)):
        if state.game.rank[card] == rank:
            return p
    return None


def _always_zero(test: Callable[[State], bool]) -> Callable[[State], int | None]:
    return lambda state: 0 if test(state) else None


def _rules(preset: str, **knobs: object) -> RuleSet:
    rules = get_preset(preset).rules
    return rules.with_options(**knobs) if knobs else rules


@dataclass(frozen=True)
class Case:
    name: str
    rules: RuleSet
    players: int
    position: Callable[[State], int | None]  # the hand position to put the cursor on
    key: str  # then this key; "#" presses the card's own number
    why: Why


CASES = [
    Case("take while attacking", _rules("app_podkidnoy"), 3, _always_zero(_attacking), "t",
         Why.TAKE_NOT_DEFENDER),
    Case("pass while defending", _rules("app_podkidnoy"), 3, _always_zero(_defending), "p",
         Why.PASS_DEFENDING),
    Case("transfer with no transfer in the rules", _rules("app_podkidnoy"), 3,
         _always_zero(_defending), "r", Why.TRANSFER_OFF),
    Case("transfer with a card of another rank", _rules("app_perevodnoy"), 3,
         _transfer_wrong_rank, "r", Why.TRANSFER_RANK),
    Case("transfer the next defender cannot take", _rules("app_perevodnoy"), 3,
         _transfer_no_room, "r", Why.TRANSFER_NEXT_TOO_FEW),
    Case("beat with a lower card", _rules("app_podkidnoy"), 3, _beat_case("lower"), "b",
         Why.BEAT_LOWER),
    Case("beat with another suit", _rules("app_podkidnoy"), 3, _beat_case("suit"), "b",
         Why.BEAT_WRONG_SUIT),
    Case("beat a trump with a plain card", _rules("app_podkidnoy"), 3, _beat_case("trump"),
         "b", Why.BEAT_NEEDS_TRUMP),
    Case("throw in past the bout's limit",
         _rules("app_podkidnoy", first_bout_attack_limit=2, bout_attack_limit=2), 3,
         _throw_past(True), "#", Why.THROW_LIMIT),
    Case("throw in past the defender's cards", _rules("app_podkidnoy"), 3,
         _throw_past(False), "#", Why.THROW_DEFENDER_CARDS),
    Case("throw in by a seat that is no neighbour",
         _rules("app_podkidnoy", throw_in_by="neighbours_of_defender"), 4, _not_neighbour, "#",
         Why.THROW_NEIGHBOURS_ONLY),
    Case("lead out of turn", _rules("app_podkidnoy"), 3, _lead_out_of_turn, "#",
         Why.NOT_YOUR_LEAD),
]


async def _press(ui: Ui, keys: str) -> None:
    """One key (an escape sequence counts as one)."""
    target = ui.controller.intents_handled + 1
    ui.pipe.send_text(keys)
    await ui.until(lambda: ui.controller.intents_handled >= target)


@guest
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_refused_key_says_exactly_why_and_changes_nothing(case: Case, lang: str) -> None:
    state = find_state(lambda s: case.position(s) is not None, rules=case.rules,
                       players=case.players, seeds=range(400))
    position = case.position(state)
    assert position is not None
    session = FixedSession(state)
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery, \
                running_ui(Look(lang, False), backend=FixedBackend(nursery, session),
                           autostart=True) as ui:
            await ui.until(lambda: ui.controller.table.snapshot is not None and ui.settled())
            table = ui.controller.table
            before = table.snapshot
            await _press(ui, HOME)
            if case.key == "#":
                await _press(ui, DIGIT_KEYS[position])
            else:
                for _ in range(position):
                    await _press(ui, RIGHT)
                assert table.cursor == position
                await _press(ui, case.key)
            await ui.until(lambda: ui.settled() and table.notice is not None)
            assert table.notice is not None
            shown = table.notice.text(lang)
            prefix = "Нельзя: " if lang == "ru" else "Not allowed: "
            text = case.why.ru if lang == "ru" else case.why.en
            if "{" in text:  # the numbers of the situation: the text around them is shown
                for part in text.replace("}", "{").split("{")[::2]:
                    assert part in shown, (shown, part)
            else:
                assert shown == prefix + text, shown
            assert ui.screen(120, 30).count(prefix.strip()) == 1  # on the status line
            assert session.acted == []
            assert session.state is state
            assert table.snapshot is before


def test_every_refusal_fits_the_notice_line_at_80_columns() -> None:
    """«Works in an 80×24 terminal»: the notice line is one line, cut at the edge, so every
    refusal — general or exact, with two-digit numbers — fits it whole in both languages."""
    for lang, prefix in (("en", "Not allowed: "), ("ru", "Нельзя: ")):
        for code in [*Why, *Reason]:
            text = code.ru if lang == "ru" else code.en
            shown = Messages(lang)("refused", reason=text.format(limit=10, n=10, m=10))
            assert shown.startswith(prefix)
            assert len(shown) <= 80, (code, shown)

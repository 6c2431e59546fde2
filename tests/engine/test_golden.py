"""Golden recorded games: replayed on every run, every state hash compared.

tests/golden/<preset>.txt holds a few random-bot games per working preset: the deck order,
then one line per action in card notation with the SHA-256 state hash after it. A replay that
drifts by one bit fails here, which is what keeps every node's engine in agreement across
refactors and Python versions.

Regenerating is deliberate, never automatic:

    DURAK_REGENERATE_GOLDEN=1 pytest tests/engine/test_golden.py -k regenerate

and the diff of tests/golden/ must then be reviewed like code (a rules change that moves a
hash is a protocol change).
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from engine_support import card_text, format_action, parse_action

from p2p_durak.bots.random_bot import RandomBot
from p2p_durak.engine import (
    CHANCE,
    Game,
    State,
    apply,
    chance_outcome,
    is_over,
    legal_actions,
    make_game,
    new_game,
    next_game,
    state_hash,
    to_act,
)
from p2p_durak.engine.presets import get_preset, working_presets

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
REGENERATE = os.environ.get("DURAK_REGENERATE_GOLDEN") == "1"
GAMES_PER_PRESET = 2


@dataclass
class Recorded:
    preset: str
    players: int
    dealer: int
    first_attacker: int | None
    game_index: int
    seed: int
    deck: list[int]
    start: str = ""
    steps: list[tuple[str, str]] = field(default_factory=list)  # (action text, hash hex)
    result: str = ""
    titles: tuple[int, ...] = ()  # Король-говно: a later game's titles
    dummy: int = -1  # с болваном: the dummy's seat (a series keeps the first game's)
    personal: tuple[int, ...] = ()  # Длинный дурак: a later game's sixes and ladders
    ladder: tuple[int, ...] = ()


def _result_text(state: State) -> str:
    result = state.result
    assert result is not None
    durak = ",".join(map(str, result.durak)) or "-"
    finish = ",".join(map(str, result.finish)) or "-"
    return f"durak={durak} draw={'yes' if result.draw else 'no'} pogony={result.pogony} " \
           f"finish={finish}"


def _game_of(record: Recorded) -> Game:
    rules = get_preset(record.preset).rules
    return make_game(rules, record.players, record.dealer, record.first_attacker,
                     record.game_index, record.titles,
                     record.dummy if record.dummy >= 0 else None, record.personal,
                     record.ladder)


# ---- recording --------------------------------------------------------------------------

def _record(game: Game, preset: str, seed: int) -> tuple[Recorded, State]:
    rng = random.Random(f"p2p-durak/golden/{preset}/{seed}")
    deck = list(range(game.n_cards))
    rng.shuffle(deck)
    record = Recorded(preset, game.n_players, game.dealer, game.first_attacker,
                      game.game_index, seed, deck, titles=game.titles, dummy=game.dummy,
                      personal=game.personal, ladder=game.ladder)
    state = new_game(game, deck)
    record.start = state_hash(state).hex()
    bot = RandomBot(rng)
    while not is_over(state):
        actors = sorted(to_act(state))
        if actors == [CHANCE]:
            action = chance_outcome(state) or rng.choice(legal_actions(state, CHANCE))
        else:
            seat = rng.choice(actors)
            action = bot.choose(state, seat)
        text = format_action(state, action)
        state, _ = apply(state, action)
        record.steps.append((text, state_hash(state).hex()))
    record.result = _result_text(state)
    return record, state


def _plans() -> list[tuple[str, list[int]]]:
    """Per working preset, the player counts of its golden games: the fewest and the most;
    a series preset plays one more game, the next of the series."""
    out = []
    for preset in working_presets():
        counts = sorted({preset.players[0], preset.players[-1]})
        while len(counts) < GAMES_PER_PRESET:
            counts.append(counts[-1])
        if preset.rules.series == "series":
            counts.append(counts[-1])
        out.append((preset.id, counts))
    return out


def _write(preset_id: str, records: list[Recorded]) -> None:
    rules_hash = get_preset(preset_id).rules.rules_hash()
    lines = [f"# golden games of preset {preset_id}: replayed by tests/engine/test_golden.py",
             "# regenerate deliberately: DURAK_REGENERATE_GOLDEN=1 pytest "
             "tests/engine/test_golden.py -k regenerate",
             f"rules {rules_hash}"]
    for record in records:
        game = _game_of(record)
        first = "-" if record.first_attacker is None else str(record.first_attacker)
        lines += ["", f"game players={record.players} dealer={record.dealer} "
                      f"first_attacker={first} game_index={record.game_index} "
                      f"seed={record.seed}"
                      + (f" titles={','.join(map(str, record.titles))}" if record.titles
                         else "") + (f" dummy={record.dummy}" if record.dummy >= 0 else "")
                      + (f" personal={','.join(map(str, record.personal))}"
                         f" ladder={','.join(map(str, record.ladder))}" if record.personal
                         else ""),
                  "deck " + " ".join(card_text(game, c) for c in record.deck),
                  f"start {record.start}"]
        lines += [f"{text} {digest}" for text, digest in record.steps]
        lines.append(f"result {record.result}")
    (GOLDEN / f"{preset_id}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.skipif(not REGENERATE, reason="set DURAK_REGENERATE_GOLDEN=1 to rewrite "
                                           "tests/golden (deliberately)")
def test_regenerate_golden_games() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for preset_id, counts in _plans():
        records: list[Recorded] = []
        previous: State | None = None
        rules = get_preset(preset_id).rules
        for seed, n in enumerate(counts, start=1):
            if rules.series == "series" and previous is not None and \
                    previous.n_players == n:
                game = next_game(previous)  # a series: the second game follows the first
            else:
                game = make_game(rules, n, seed % n)
            record, previous = _record(game, preset_id, seed)
            records.append(record)
        _write(preset_id, records)


# ---- replaying --------------------------------------------------------------------------

def _parse(path: Path) -> tuple[str, list[Recorded]]:
    rules_hash = ""
    records: list[Recorded] = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        if word == "rules":
            rules_hash = rest
        elif word == "game":
            fields = dict(item.split("=") for item in rest.split())
            first = None if fields["first_attacker"] == "-" else int(fields["first_attacker"])
            titles, personal, ladder = (
                tuple(int(t) for t in fields[name].split(",") if t) if name in fields else ()
                for name in ("titles", "personal", "ladder"))
            records.append(Recorded(path.stem, int(fields["players"]), int(fields["dealer"]),
                                    first, int(fields["game_index"]), int(fields["seed"]), [],
                                    titles=titles, dummy=int(fields.get("dummy", -1)),
                                    personal=personal, ladder=ladder))
        elif word == "deck":
            records[-1].deck = rest.split()  # type: ignore[assignment]  # parsed below
        elif word == "start":
            records[-1].start = rest
        elif word == "result":
            records[-1].result = rest
        else:
            text, _, digest = line.rpartition(" ")
            records[-1].steps.append((text, digest))
    return rules_hash, records


GOLDEN_FILES = sorted(GOLDEN.glob("*.txt"))


def test_every_working_preset_has_golden_games() -> None:
    assert {p.stem for p in GOLDEN_FILES} == {p.id for p in working_presets()}


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=lambda p: p.stem)
def test_golden_games_replay_to_the_same_hashes(path: Path) -> None:
    rules_hash, records = _parse(path)
    assert rules_hash == get_preset(path.stem).rules.rules_hash(), (
        "the preset's canonical rule bytes changed (a knob added or a value changed): every "
        "state hash moves with them; if intended, regenerate the golden games")
    assert len(records) >= GAMES_PER_PRESET
    for number, record in enumerate(records, start=1):
        game = _game_of(record)
        deck = [game.deck.parse(text) for text in record.deck]  # type: ignore[arg-type]
        state = new_game(game, deck)
        where = f"{path.name} game {number}"
        assert state_hash(state).hex() == record.start, f"{where}: the initial state"
        for index, (text, digest) in enumerate(record.steps, start=1):
            action = parse_action(state, text)
            assert format_action(state, action) == text, f"{where} step {index}: notation"
            state, _ = apply(state, action)
            assert state_hash(state).hex() == digest, f"{where} step {index}: {text}"
        assert is_over(state), f"{where}: the log ends before the game does"
        assert _result_text(state) == record.result, f"{where}: the result"

"""The random bot, the simulator and the `durak rules` / `durak simulate` commands."""

from __future__ import annotations

import json
import random
from importlib.metadata import entry_points

import pytest

from p2p_durak.bots.random_bot import RandomBot
from p2p_durak.cli.main import build_parser, main
from p2p_durak.engine import CHANCE, legal_actions, make_game, new_game, step, to_act
from p2p_durak.engine import actions as A
from p2p_durak.engine.games.catalogue import GAMES
from p2p_durak.engine.presets import PRESETS, get_preset
from p2p_durak.sim import simulate


def test_random_bot_picks_legal_actions_reproducibly() -> None:
    game = make_game(get_preset("app_podkidnoy").rules, 3, 0)
    order = list(range(36))
    random.Random(8).shuffle(order)
    state = step(new_game(game, order), A.deal())
    state = step(state, A.reveal(order[18]))
    first = RandomBot(random.Random(1))
    second = RandomBot(random.Random(1))
    while CHANCE not in to_act(state) and state.result is None:
        (seat,) = sorted(to_act(state))[:1]
        choice = first.choose(state, seat)
        assert choice in legal_actions(state, seat)
        assert second.choose(state, seat) == choice
        state = step(state, choice)
        if len(to_act(state)) != 1:
            break
    with pytest.raises(ValueError, match="no legal action"):
        first.choose(state, 99)


def test_simulate_is_deterministic_and_adds_up() -> None:
    one = simulate("app_podkidnoy", 3, 40, seed=11)
    assert one.as_dict() == simulate("app_podkidnoy", 3, 40, seed=11).as_dict()
    assert one.as_dict() != simulate("app_podkidnoy", 3, 40, seed=12).as_dict()
    for seat in range(3):
        assert one.wins[seat] + one.duraks[seat] + one.draws == 40
    assert sum(one.duraks) + one.draws == 40
    assert one.avg_actions > 20
    assert one.avg_bouts > 3
    assert one.total_actions == sum(o.actions for o in one.outcomes)


def test_simulate_team_games_end_with_duraks_of_one_team() -> None:
    """«оставшиеся — дураки»: the players of the losing team still in the game."""
    summary = simulate("app_komandy", 4, 16, seed=3)
    for outcome in summary.outcomes:
        assert outcome.draw or len({d % 2 for d in outcome.durak}) == 1
    assert any(len(o.durak) == 2 for o in summary.outcomes)


def test_simulate_series_the_durak_deals_next() -> None:
    summary = simulate("app_seriya", 4, 12, seed=5)
    for before, after in zip(summary.outcomes, summary.outcomes[1:], strict=False):
        if not before.draw:
            assert after.dealer == before.durak[0]
        else:
            assert after.dealer == before.dealer


def test_simulate_counts_the_players_not_the_dummy(capsys: pytest.CaptureFixture[str]) -> None:
    """с болваном (seed 000_0a1bcdd496bc6662.txt, «Дурак с болваном»: «Болван не может быть
    "дураком"»): `--players 3` is three players and the dummy; the per-player table has three
    rows, and every decided game has its durak among them."""
    summary = simulate("s_bolvanom", 3, 20, seed=2)
    assert summary.players == 3
    assert len(summary.wins) == len(summary.duraks) == 3
    for player in range(3):
        assert summary.wins[player] + summary.duraks[player] + summary.draws == 20
    assert sum(summary.duraks) + summary.draws == 20
    assert main(["simulate", "--preset", "s_bolvanom", "--players", "3", "--games", "4"]) == 0
    rows = capsys.readouterr().out.split("player wins  duraks\n", 1)[1].split("draws:")[0]
    assert len(rows.splitlines()) == 3


def test_cli_help_lists_the_subcommands() -> None:
    text = build_parser().format_help()
    assert "usage: durak" in text
    assert "rules" in text
    assert "simulate" in text


def test_cli_rules_lists_every_preset_with_its_state(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for preset in PRESETS.values():
        assert preset.id in out
        assert preset.name_en in out
    assert "state:   works" in out
    # every attack/defend preset plays since покерный (session 3); the other games
    # (engine/games/catalogue.py) are pending until each has its engine
    pending = next((p.id for p in PRESETS.values() if not p.works), None) or \
        next((g.id for g in GAMES.values() if not g.works), None)
    assert ("pending: " in out) == (pending is not None)
    assert main(["rules", "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in records] == list(PRESETS) + list(GAMES)
    by_id = {r["id"]: r for r in records}
    assert by_id["app_podkidnoy"]["works"]
    assert by_id["app_podkidnoy"]["default"]
    if pending is not None:
        assert not by_id[pending]["works"]
        assert by_id[pending]["pending"]


def test_cli_simulate_prints_a_summary_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--preset", "app_perevodnoy", "--players", "3", "--games", "15",
                 "--seed", "4", "--json"])
    assert code == 0
    lines = capsys.readouterr().out.strip().splitlines()
    figures = json.loads(lines[-1])
    assert figures == simulate("app_perevodnoy", 3, 15, seed=4).as_dict()
    assert figures["games"] == 15
    assert len(figures["wins"]) == 3
    assert "average length" in "\n".join(lines)


@pytest.mark.parametrize(("args", "message"), [
    *[(["--preset", p.id], "not playable yet") for p in PRESETS.values() if not p.works][:1],
    (["--preset", "nonexistent"], "no preset"),
    (["--players", "7"], "not 7"),
    (["--preset", "app_komandy", "--players", "2"], "2"),
])
def test_cli_simulate_refuses_what_cannot_be_played(capsys: pytest.CaptureFixture[str],
                                                    args: list[str], message: str) -> None:
    assert main(["simulate", *args, "--games", "1"]) == 2
    assert message in capsys.readouterr().err


def test_console_entry_point_is_registered() -> None:
    (script,) = [e for e in entry_points(group="console_scripts") if e.name == "durak"]
    assert script.value == "p2p_durak.cli.main:main"

"""The help screen: the current rules in short, and the keys."""

from __future__ import annotations

from p2p_durak.cli.canvas import Line, clip_text, fit, pad_lines, wrap
from p2p_durak.cli.cardtext import suit_symbol
from p2p_durak.cli.i18n import SUIT_NAMES, Look
from p2p_durak.cli.table_view import preset_name
from p2p_durak.engine import RuleSet
from p2p_durak.engine.durak_family import capabilities
from p2p_durak.engine.family import Command
from p2p_durak.engine.presets import PRESETS


def rules_summary(rules: RuleSet, look: Look) -> str:
    """The options that most often differ between tables, in one line."""
    m = look.messages
    parts = [
        f"{m('create.transfer')}: {m('on') if rules.transfer else m('off')}",
        f"{m('create.throw_in_by')}: {m('throw_in_by.' + rules.throw_in_by)}",
        f"{m('create.pogony')}: {m('on') if rules.pogony_sixes else m('off')}",
    ]
    if rules.teams != "none":
        parts.append(f"{m('create.teams')}: {rules.teams}")
    return " · ".join(parts)


def _variant_keys(rules: RuleSet | None) -> list[str]:
    """The help lines of the keys only some rules use: those of these rules (all of them
    when the rules are not known; the lowest card's claim only when they are). R and S say
    nothing at a table without a transfer or a card to show, so they are listed only where
    they do something. Which commands a rule set uses is the engine's to say
    (`Capabilities.commands`), never a knob string compared here."""
    if rules is None:
        return [f"help.key.{c.value}" for c in Command if c is not Command.CLAIM_CARD]
    commands = capabilities(rules).commands
    return [f"help.key.{c.value}" for c in Command if c in commands]


def table_keys(rules: RuleSet | None, look: Look) -> list[str]:
    """The help lines of a table's keys: those these rules use (every one for None)."""
    m = look.messages
    return [line for key in ("help.key_lines", *_variant_keys(rules), "help.key_tail")
            for line in m(key).split("\n")]


def card_legend(look: Look) -> str:
    """What the card names mean in this language and notation: ranks and suits in words."""
    m = look.messages
    ranks = m("help.ranks_ascii" if look.ascii_only else "help.ranks")
    named = " ".join(f"{suit_symbol(s, look.ascii_only, look.lang)} {SUIT_NAMES[look.lang][s]}"
                     for s in range(4))
    return f"{ranks} · {named}"


def render_help(preset_id: str, rules: RuleSet | None, players: int | None, look: Look,
                width: int, height: int, *, lobby: bool = False,
                keys_of: str | None = None, status: str = "") -> list[Line]:
    """The help screen: the rules (not in the lobby) and the keys — the table's, the lobby's,
    or those of the catalogue entry `keys_of` (the new-table form); `status` on the closing
    line says the table waits for this player meanwhile ("Your move · time 8 s")."""
    m = look.messages
    if lobby or keys_of:
        keys = m(keys_of or "help.lobby_lines").split("\n")
    else:
        keys = table_keys(rules, look)
    if lobby:  # every table key, where the screen has room for them all
        every = table_keys(None, look)
        if height - 6 - len(keys) >= len(every):
            keys += ["", m("help.at_table") + ":", *every]
        else:
            keys += ["", m("help.at_table_short")]
    # the description gives way to the keys on a short screen (title, blank, rules, deck, two
    # lines of options, blank, keys heading and the closing line take nine)
    described = max(1, min(5, height - 9 - len(keys)))
    name = m("app.title") if lobby else preset_name(preset_id, look.lang)
    lines: list[Line] = [fit([("class:header.title", " " + m("help.title", preset=name))],
                             width, "class:header"), []]
    preset = PRESETS.get(preset_id)
    if not lobby:
        lines.append([("class:label", " " + m("help.rules"))])
        if preset is not None:
            for text in wrap(preset.description(look.lang), width - 4, described):
                lines.append([("", "  " + text)])
        if rules is not None:
            deck = rules.deck()
            lines.append([("", "  " + m("help.deck", size=deck.n_cards, hand=rules.hand_size,
                                          players=players or "?"))])
            for text in wrap(rules_summary(rules, look), width - 4, 2):
                lines.append([("class:dim", "  " + text)])
        lines.append([])
    lines.append([("class:label", " " + m("help.keys"))])
    for text in keys:
        lines.append([("", "  " + text)])
    room = height - 1 - len(lines)
    if room > 0:  # the card names in words, where there is room
        lines += [[]] * (room > 1) + [[("class:dim", "  " + clip_text(card_legend(look),
                                                                     width - 2))]]
    body = pad_lines(lines, height - 1)
    closing: Line = [("class:keys", " " + m("help.close"))]
    if status:
        closing += [("class:keys", "   "), ("class:header.timer", f" {status} ")]
    body.append(fit(closing, width, "class:keys"))
    return [fit(line, width) for line in body]

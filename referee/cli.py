"""`python -m referee meld|contract|layoff|penalty|solve`: the API's calls on the command line.

The same inputs as the JSON API, answered by the same code (`referee.web.refereeing.service`):
`--json` prints exactly the API's answer. Exit status: 0 for a valid verdict (a penalty: 0
unless a card cannot be in the shoe; a rummy hand solved: 0, it has no contract to meet), 1
for an invalid one, 2 for input the referee cannot read (the reason on stderr). `--players`
fixes the shoe (default: the variant's largest).

    python -m referee meld 7H JK 9H
    python -m referee contract --round 2 "7H 7S 7D" "4C 5C 6C JK"
    python -m referee layoff "4C 5C 6C" 7C
    python -m referee penalty --variant rummy 3D 8D AC 5S
    python -m referee solve --round 1 --lang de 7H 7S 7D KC KD KS 2C
    python -m referee meld --variant shanghai --house-rule max_jokers_per_meld=2 JK 5S JK
    python -m referee contract --round 1 --going-out --discard KD "7H 7S 7D" "9C 9D 9S"
    python -m referee contract --variant zioncheck-nl --round 1 --going-out --discard 4C \
        --from-discard-pile 4C "7H 7S 7D" "9C 9D 9S"
    python -m referee layoff --contract-down this_turn "4C 5C 6C 7C" 8C
    python -m referee meld --players 4 7H 7H 7H

The console script `rummy-referee` is the same command line; it also serves the app and keeps
its data (`serve`, `backup`, `restore`, `pdf-warm`: `referee.commands`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from flask_babel import gettext, ngettext

from referee import commands

EXIT_VALID = 0
EXIT_INVALID = 1
EXIT_BAD_INPUT = 2


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--variant", default="contract", help="variant id or alias (default: contract)"
    )
    common.add_argument("--lang", help="language of the answer and of the rank letters")
    common.add_argument(
        "--house-rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override a rule; VALUE is JSON (2, true, null, [..]) or plain text; repeatable",
    )
    common.add_argument(
        "--players", type=int, help="players at the table: the shoe follows (default: the largest)"
    )
    common.add_argument("--json", action="store_true", help="print the API's JSON answer")
    with_round = argparse.ArgumentParser(add_help=False)
    with_round.add_argument("--round", help="round number (1 = the first contract)")

    console_script = Path(sys.argv[0]).name.startswith("rummy-referee")
    parser = argparse.ArgumentParser(
        prog="rummy-referee" if console_script else "python -m referee",
        description="Rummy Referee: check melds, contracts, lay-offs and hands; "
        "serve the app and keep its data.",
    )
    verbs = parser.add_subparsers(dest="call", required=True, metavar="CALL")
    meld = verbs.add_parser("meld", parents=[common], help="is this a set or a run?")
    meld.add_argument("cards", nargs="+", help="cards, as arguments or one string")
    contract = verbs.add_parser(
        "contract", parents=[common, with_round], help="do these melds meet the contract?"
    )
    contract.add_argument(
        "--going-out", action="store_true", help="the melds are the whole hand, going out"
    )
    contract.add_argument("--discard", help="going out: the card discarded last")
    contract.add_argument(
        "--from-discard-pile",
        metavar="CARDS",
        help="the cards taken from the discard pile this turn (zioncheck-nl: not discarded again)",
    )
    contract.add_argument("melds", nargs="+", help='one argument per meld: "7H 7S 7D"')
    layoff = verbs.add_parser("layoff", parents=[common], help="can these cards be laid off?")
    layoff.add_argument(
        "--contract-down",
        choices=("no", "this_turn", "earlier_turn"),
        help="when the player's own contract went down (unsaid: the verdict names the condition)",
    )
    layoff.add_argument("meld", help='the meld on the table, one argument: "4C 5C 6C"')
    layoff.add_argument("cards", nargs="+", help="the cards to lay off")
    penalty = verbs.add_parser("penalty", parents=[common], help="what do these cards cost?")
    penalty.add_argument("cards", nargs="+", help="the cards left in a hand")
    solve = verbs.add_parser(
        "solve", parents=[common, with_round], help="the best way to meet the contract"
    )
    solve.add_argument(
        "--nearest",
        action="store_true",
        help="when the contract can't be met, also name the cards it is missing",
    )
    solve.add_argument("hand", nargs="+", help="the cards in the hand")
    commands.add_commands(verbs)
    return parser


def _house_rules(items: Sequence[str]) -> dict[str, Any] | None:
    from referee.engine.errors import RefereeError

    rules: dict[str, Any] = {}
    for item in items:
        name, sep, text = item.partition("=")
        if not sep or not name.strip():
            raise RefereeError("house_rule_syntax", input=item)
        try:
            value = json.loads(text)
        except ValueError:
            value = text  # plain words: aces=low_only
        rules[name.strip()] = value
    return rules or None


def _round(text: str | None) -> Any:
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        return text  # the service says that a round is a whole number


def request_body(args: argparse.Namespace) -> dict[str, Any]:
    """The JSON body the API would get for these arguments."""
    body: dict[str, Any] = {"variant": args.variant}
    if args.lang is not None:
        body["lang"] = args.lang
    house_rules = _house_rules(args.house_rule)
    if house_rules is not None:
        body["house_rules"] = house_rules
    if args.players is not None:
        body["players"] = args.players
    body.update(_CALL_FIELDS[args.call](args))
    return body


def _cards_fields(args: argparse.Namespace) -> dict[str, Any]:
    return {"cards": " ".join(args.cards)}


def _contract_fields(args: argparse.Namespace) -> dict[str, Any]:
    fields: dict[str, Any] = {"round": _round(args.round), "melds": list(args.melds)}
    if args.going_out:
        fields["going_out"] = True
    if args.discard is not None:
        fields["discard"] = args.discard
    if args.from_discard_pile is not None:
        fields["from_discard_pile"] = args.from_discard_pile
    return fields


def _layoff_fields(args: argparse.Namespace) -> dict[str, Any]:
    fields: dict[str, Any] = {"meld": args.meld, "cards": " ".join(args.cards)}
    if args.contract_down is not None:
        fields["contract_down"] = args.contract_down
    return fields


def _solve_fields(args: argparse.Namespace) -> dict[str, Any]:
    fields: dict[str, Any] = {"round": _round(args.round), "hand": " ".join(args.hand)}
    if args.nearest:
        fields["nearest"] = True
    return fields


_CALL_FIELDS: dict[str, Callable[[argparse.Namespace], dict[str, Any]]] = {
    "meld": _cards_fields,
    "penalty": _cards_fields,
    "contract": _contract_fields,
    "layoff": _layoff_fields,
    "solve": _solve_fields,
}


def _app() -> Any:
    """A small Flask app with the catalogs: enough for translated answers, no database."""
    from flask import Flask
    from flask_babel import Babel

    from referee.web.core.languages import DEFAULT_LANGUAGE
    from referee.web.plumbing.i18n import translation_directories

    app = Flask("referee.cli")
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = translation_directories()
    Babel(app, default_locale=DEFAULT_LANGUAGE)
    return app


def _exit_status(call: str, answer: dict[str, Any]) -> int:
    if not answer.get("valid", True):
        return EXIT_INVALID  # a card the shoe cannot hold, a penalty and a solve included
    if call == "penalty":
        return EXIT_VALID
    if call == "solve":  # rummy has no contract to meet (null): its answer is the melds
        return EXIT_INVALID if answer["can_meet_contract"] is False else EXIT_VALID
    return EXIT_VALID if answer["valid"] else EXIT_INVALID


def main(
    argv: Sequence[str] | None = None, *, stdout: TextIO | None = None, stderr: TextIO | None = None
) -> int:
    """Run one call; print the verdict; return the exit status."""
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    args = _parser().parse_args(argv)
    if args.call in commands.NAMES:
        return commands.run(args, err)

    from flask_babel import force_locale

    from referee.engine.errors import RefereeError
    from referee.web.core.languages import DEFAULT_LANGUAGE, supported
    from referee.web.jsonapi.errors import error_answer
    from referee.web.refereeing import service

    with _app().app_context(), force_locale(supported(args.lang) or DEFAULT_LANGUAGE):
        try:
            body = request_body(args)
            answer = service.answer(args.call, body)
        except RefereeError as error:
            problem = error_answer(error)
            if args.json:
                print(_dumps(problem), file=out)
            print(problem["error"]["message"], file=err)
            return EXIT_BAD_INPUT
        if args.json:
            print(_dumps(answer), file=out)
        else:
            print(render(args.call, body, answer), file=out)
    return _exit_status(args.call, answer)


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True, indent=2)


# -- the verdict for people -------------------------------------------------------------------


def _cards_text(cards: Sequence[str]) -> str:
    from referee.web.vocabulary.words import cards_label

    return cards_label(cards) if cards else "-"


def _meld_lines(meld: dict[str, Any], indent: str = "") -> list[str]:
    from referee.web.vocabulary.words import card_label, meld_kind_label

    cards = _cards_text(meld["cards"])
    if meld["valid"]:
        lines = [
            indent
            + gettext(
                "Valid: %(cards)s (%(kind)s)", cards=cards, kind=meld_kind_label(meld["kind"])
            )
        ]
    else:
        lines = [indent + gettext("Not valid: %(cards)s", cards=cards)]
    for joker in meld["jokers"]:
        lines.append(indent + "  " + gettext("joker as %(card)s", card=card_label(joker["as"])))
    if meld["ambiguous"]:
        lines.append(indent + "  " + gettext("More than one reading fits:"))
        for reading in meld["readings"]:
            kind = meld_kind_label(reading["kind"])
            lines.append(f"{indent}    {_cards_text(reading['cards'])} ({kind})")
    lines += [f"{indent}  - {error['message']}" for error in meld["errors"]]
    return lines


def _contract_lines(body: dict[str, Any], answer: dict[str, Any]) -> list[str]:
    from referee.engine.house_rules import get_variant
    from referee.web.vocabulary.words import contract_text

    contract = get_variant(body["variant"], body.get("house_rules")).contract_for(body["round"])
    words = contract_text(contract)
    if answer["valid"]:
        lines = [gettext("The contract is met: %(contract)s.", contract=words)]
    else:
        lines = [gettext("The contract is not met: %(contract)s.", contract=words)]
    for number, meld in enumerate(answer["melds"], start=1):
        lines.append(gettext("Meld %(number)s:", number=number))
        lines += _meld_lines({**meld, "errors": []}, "  ")
    for error in answer["errors"]:
        if error["meld"] is None:
            lines.append(f"- {error['message']}")
        else:
            where = gettext("Meld %(number)s:", number=error["meld"] + 1)
            lines.append(f"- {where} {error['message']}")
    return lines


def _layoff_lines(answer: dict[str, Any]) -> list[str]:
    if answer["valid"]:
        lines = [gettext("These cards can be laid off.")]
    else:
        lines = [gettext("These cards cannot be laid off.")]
    lines += _meld_lines({**answer["meld"], "errors": []}, "  ")
    lines += [f"- {error['message']}" for error in answer["errors"]]
    lines += [f"- {condition['message']}" for condition in answer["conditions"]]
    return lines


def _penalty_lines(answer: dict[str, Any]) -> list[str]:
    from referee.web.vocabulary.words import card_label

    total = answer["penalty"]
    lines = [ngettext("Penalty: %(num)d point", "Penalty: %(num)d points", total)]
    lines += [f"  {card_label(item['card'])}  {item['points']}" for item in answer["cards"]]
    lines += [f"- {error['message']}" for error in answer["errors"]]
    return lines


def _solve_lines(body: dict[str, Any], answer: dict[str, Any]) -> list[str]:
    from referee.engine.house_rules import get_variant

    lines: list[str] = [f"- {error['message']}" for error in answer.get("errors", [])]
    if not get_variant(body["variant"], body.get("house_rules")).has_contracts:
        pass  # rummy: no contract to meet, only the melds that leave the least
    elif answer["can_meet_contract"]:
        lines.append(gettext("The hand can meet the contract."))
    else:
        lines.append(gettext("The hand cannot meet the contract yet."))
    for meld in answer["melds"]:
        lines += _meld_lines(meld, "  ")
    lines.append(gettext("Left in the hand: %(cards)s", cards=_cards_text(answer["leftover"])))
    lines.append(
        ngettext(
            "Penalty left: %(num)d point",
            "Penalty left: %(num)d points",
            answer["leftover_penalty"],
        )
    )
    if answer.get("missing"):
        lines.append(gettext("Still missing: %(cards)s", cards=_cards_text(answer["missing"])))
    if not answer["exact"]:
        lines.append(gettext("The search stopped at its limit: a better way may exist."))
    return lines


def render(call: str, body: dict[str, Any], answer: dict[str, Any]) -> str:
    """The answer as lines for a terminal, in the current locale."""
    if call == "meld":
        lines = _meld_lines(answer)
    elif call == "contract":
        lines = _contract_lines(body, answer)
    elif call == "layoff":
        lines = _layoff_lines(answer)
    elif call == "penalty":
        lines = _penalty_lines(answer)
    else:
        lines = _solve_lines(body, answer)
    return "\n".join(lines)

"""A trainer's session (the pages, /training): ten questions from the drills service, easy to
hard, and an answer judged against the same drill drawn again from the session's query.

A session is its address: the variant, its house rules, the level, the seed and the kinds
the phone asks to see again (`due`, its Leitner box's rules: static/js/training.js). The same
address draws the same ten questions (the service's packs are deterministic for a seed), so a
question is judged by drawing the session again and taking its question by number; nothing is
kept on the server.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext

from referee.engine import drills as engine
from referee.engine.cards import parse_cards
from referee.engine.errors import RefereeError
from referee.engine.house_rules import get_variant
from referee.engine.variants import Variant
from referee.web.plumbing.i18n import current_language
from referee.web.plumbing.numbers import plain_count
from referee.web.vocabulary.house_rules import canonical_rules
from referee.web.vocabulary.words import card_label

from . import service

JSON = dict[str, Any]
#: Questions in a session.
QUESTIONS = 10
#: The kinds from easiest to hardest: a session shows its plain questions first, then its near
#: misses, each part in this order.
KIND_ORDER = ("facts", "meld", "value", "contract", "layoff", "swap", "solve")
#: At most this many kinds come back first from the phone's box (one near miss each).
MAX_DUE = 3
#: The level a rule that comes back is asked at: the one with the most near misses.
DUE_LEVEL = engine.LEVELS[-1]
#: Melds a solve answer may lay down.
MAX_MELDS = 8
_MELD_BREAK = re.compile(r"\r?\n|\|")


@dataclass(frozen=True)
class Session:
    variant: str
    level: int
    seed: int
    due: tuple[str, ...]
    house_rules: str  # the table's house rules as the query writes them ("" for none)
    rules_url: str
    drills: tuple[JSON, ...]

    def query(self, **more: Any) -> dict[str, Any]:
        """The session's address arguments (a question's or an answer's add theirs)."""
        args: dict[str, Any] = {"level": self.level, "seed": self.seed}
        if self.due:
            args["due"] = ",".join(self.due)
        if self.house_rules:
            args["house_rules"] = self.house_rules
        return {**args, **more}

    def played(self) -> Variant:
        """The variant as the session's table plays it (its house rules read once, here)."""
        return get_variant(self.variant, json.loads(self.house_rules) if self.house_rules else None)


@dataclass(frozen=True)
class Judged:
    right: bool
    given: str  # the player's answer in words
    answer: str  # the referee's answer in words
    #: False where the answer could not be checked (offline: melds other than the referee's)
    checked: bool = True


def due_kinds(variant_id: str, args: Mapping[str, str]) -> tuple[str, ...]:
    """The kinds the phone asks to practise again, in its order; unknown_drill_kind for a kind
    there is not (a kind the variant has not, a swap where no joker may be swapped, is left out)."""
    names = [n.strip() for n in args.get("due", "").split(",") if n.strip()]
    due: list[str] = []
    for name in names:
        if name not in engine.KINDS:
            raise RefereeError("unknown_drill_kind", kind=name[:20], kinds=", ".join(engine.KINDS))
        if name not in due:
            due.append(name)
    kinds = engine.kinds_for(get_variant(variant_id))
    return tuple(kind for kind in due if kind in kinds)[:MAX_DUE]


def draw(variant_id: str, args: Mapping[str, str]) -> Session:
    """The session the query asks for (a seed drawn when it has none); RefereeError for bad
    input, said in words by the vocabulary."""
    house_rules = args.get("house_rules", "")
    asked = {
        "variant": variant_id,
        "level": args.get("level", ""),
        "seed": args.get("seed", ""),
        "count": str(QUESTIONS),
        "house_rules": house_rules,
    }
    pack = service.pack(asked)
    due = due_kinds(pack["variant"], args)
    chosen = _due_drills(pack, due, house_rules)
    ids = {drill["id"] for drill in chosen}
    rest = [drill for drill in pack["drills"] if drill["id"] not in ids]
    drills = chosen + rest[: QUESTIONS - len(chosen)]
    drills.sort(key=lambda d: (d["near_miss"], KIND_ORDER.index(d["kind"])))
    return Session(
        variant=pack["variant"],
        level=pack["level"],
        seed=pack["seed"],
        due=due,
        house_rules=house_rules.strip() and _canonical(pack),
        rules_url=pack["rules_url"],
        drills=tuple(drills),
    )


def _canonical(pack: JSON) -> str:
    """The table's house rules as one canonical query value (as `TableRules.key` writes it)."""
    return canonical_rules(pack["house_rules"])


def _due_drills(pack: JSON, due: tuple[str, ...], house_rules: str) -> list[JSON]:
    """One near miss of each kind the phone asks for again, drawn from the session's seed."""
    chosen: list[JSON] = []
    for kind in due:
        asked = {
            "variant": pack["variant"],
            "kind": kind,
            "level": str(DUE_LEVEL),
            "seed": str(pack["seed"]),
            "count": "5",
            "house_rules": house_rules,
        }
        try:
            drawn = service.pack(asked)["drills"]
        except RefereeError:  # a table with too few questions of the kind: none comes back
            continue
        near = [d for d in drawn if d["near_miss"]] or drawn
        chosen.append(near[0])
    return chosen


def judge(session: Session, drill: JSON, args: Mapping[str, str]) -> Judged:
    """The player's answer to `drill`, judged; RefereeError (a 400) when it cannot be read."""
    if drill["choices"] is not None:
        return _judge_choice(drill, args)
    if drill["kind"] == "value":
        return _judge_points(drill, args)
    return _judge_solve(session, drill, args)


def goes_down(answer: JSON) -> bool:
    """Whether a solve drill's hand goes down: its contract met, or in a variant without
    contracts (`can_meet_contract` None), any meld at all."""
    return answer["can_meet_contract"] is not False and bool(answer["melds"])


def referee_answer(drill: JSON) -> str:
    """The referee's answer to `drill` in words (the choice's label, the points, the melds)."""
    if drill["choices"] is not None:
        return str(drill["choice_labels"][drill["choices"].index(drill["answer"])])
    if drill["kind"] == "value":
        return str(drill["answer"])
    answer = drill["answer"]
    return _melds_label(answer["melds"]) if goes_down(answer) else gettext("No")


def _judge_choice(drill: JSON, args: Mapping[str, str]) -> Judged:
    text = args.get("answer", "").strip()
    labels = drill["choice_labels"]
    index = plain_count(text, digits=3) if text else None
    if index is None or not 0 <= index < len(labels):
        raise RefereeError("no_answer_chosen", field="answer")
    right_index = drill["choices"].index(drill["answer"])
    return Judged(index == right_index, labels[index], referee_answer(drill))


def _judge_points(drill: JSON, args: Mapping[str, str]) -> Judged:
    text = args.get("answer", "").strip()
    points = plain_count(text, digits=5) if text else None
    if points is None:
        raise RefereeError("points_not_a_number", field="answer")
    return Judged(points == drill["answer"], str(points), referee_answer(drill))


def _judge_solve(session: Session, drill: JSON, args: Mapping[str, str]) -> Judged:
    down = args.get("down", "").strip()
    if down not in (engine.YES, engine.NO):
        raise RefereeError("no_answer_chosen", field="down")
    answer = drill["answer"]
    best = referee_answer(drill)
    if down == engine.NO:
        return Judged(not goes_down(answer), gettext("No"), best)
    lines = [line for line in _MELD_BREAK.split(args.get("melds", "")) if line.strip()]
    if not lines or len(lines) > MAX_MELDS:
        raise RefereeError("no_melds_typed", field="melds")
    melds = [[str(card) for card in parse_cards(line, current_language())] for line in lines]
    variant = session.played()
    right = goes_down(answer) and engine.check_solution(
        variant, drill["question"], melds, int(answer["leftover_penalty"])
    )
    return Judged(bool(right), _melds_label(melds), best)


def _melds_label(melds: list[list[str]]) -> str:
    return " | ".join(" ".join(card_label(card) for card in meld) for meld in melds)

"""House rules from a URL, the one reader every page uses: `?house_rules=<JSON>` and/or one
query parameter per rule.

`/rules/contract?buying=true&buy_limit=2` and
`/rules/contract?house_rules={"buying": true, "buy_limit": 2}` mean the same card. The result
is the variant with the rules applied and the rules that differ from the registered variant,
in a canonical form that keys the PDF cache and is carried along by every print link.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.engine.errors import HouseRuleError, RefereeError
from referee.engine.house_rules import get_variant
from referee.engine.variants import HOUSE_RULES, VARIANTS, RuleKind, Variant
from referee.web.plumbing.numbers import whole_number

#: Longest `house_rules` JSON we read (a custom 12-round table fits in far less).
MAX_HOUSE_RULES_LENGTH = 4000

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def canonical_rules(changed: Mapping[str, Any]) -> str:
    """House rules that differ from a variant's as one canonical JSON text: the same rules give
    the same text (a cache key, an address); "" for none."""
    if not changed:
        return ""
    return json.dumps(changed, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class TableRules:
    """A variant as a table plays it: the registered one plus its house rules."""

    variant: Variant
    changed: Mapping[str, Any]  # rule name -> JSON value, only the rules that differ from `base`

    @property
    def key(self) -> str:
        """Canonical JSON of the changed rules ("" when there are none)."""
        return canonical_rules(self.changed)

    def query(self) -> dict[str, str]:
        """The query arguments that give this table again (for print links)."""
        return {"house_rules": self.key} if self.changed else {}


def _query_value(name: str, text: str) -> Any:
    """One rule's value from its query text, by the rule's kind."""
    kind = HOUSE_RULES[name].kind
    stripped = text.strip()
    lowered = stripped.lower()
    if kind is RuleKind.BOOL:
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        raise HouseRuleError(rule=name, value=stripped[:80])
    if kind.number:
        if kind is RuleKind.OPTIONAL_INT and lowered in ("", "none", "null"):
            return None
        return _number(name, stripped)
    if kind is RuleKind.CHOICE:
        return stripped
    if kind is RuleKind.DEAL and stripped and stripped[0] != "[":
        # deal=10,11,12 reads as well as deal=[10,11,12]
        return [_number(name, part) for part in stripped.split(",")]
    try:
        return json.loads(stripped)
    except ValueError:
        raise HouseRuleError(rule=name, value=stripped[:80]) from None


def _number(name: str, text: str) -> int:
    """A number as every form reads one (the rule's own bounds are the engine's to check)."""
    try:
        return whole_number(text)
    except RefereeError:
        raise HouseRuleError(rule=name, value=text.strip()[:80]) from None


def overrides_from_query(args: Mapping[str, str]) -> dict[str, Any]:
    """The house rules a query asks for; HouseRuleError for anything unreadable."""
    overrides: dict[str, Any] = {}
    raw = args.get("house_rules", "")
    if raw.strip():
        if len(raw) > MAX_HOUSE_RULES_LENGTH:
            raise HouseRuleError(rule="house_rules", value=raw[:40])
        try:
            parsed = json.loads(raw)
        except ValueError:
            raise HouseRuleError(rule="house_rules", value=raw[:80]) from None
        if not isinstance(parsed, dict):
            raise HouseRuleError(rule="house_rules", value=raw[:80])
        overrides.update(parsed)
    for name in HOUSE_RULES:
        if name in args:
            overrides[name] = _query_value(name, args[name])
    return overrides


def table_rules(variant_id: str, overrides: Mapping[str, Any] | None = None) -> TableRules:
    """The variant with house rules; UnknownVariantError / HouseRuleError on bad input."""
    variant = get_variant(variant_id, overrides or None)
    base = VARIANTS[variant.id]
    base_rules = base.house_rules()
    changed = {
        name: value for name, value in variant.house_rules().items() if value != base_rules[name]
    }
    return TableRules(variant=variant, changed=changed)

"""A game's picture: each player's running total after each round, as a line chart
(`templates/games/_chart.html` on the game page and the finished screen, and the filled
score sheet)."""

from __future__ import annotations

from flask_babel import gettext

from referee.engine.game import Game
from referee.web.plumbing.charts import LineChart, Series

from . import bp

#: A chart needs this many rounds before it shows more than a row of dots.
MIN_ROUNDS = 2


def totals_chart(game: Game) -> LineChart | None:
    """The running totals by round, or None while there are too few rounds to draw."""
    if len(game.rounds) < MIN_ROUNDS:
        return None
    contracts = game.variant.has_contracts
    running = game.running_totals()
    return LineChart(
        title=gettext("Running totals, round by round")
        if contracts
        else gettext("Running totals, deal by deal"),
        x_title=gettext("Round") if contracts else gettext("Deal"),
        y_title=gettext("Total"),
        x_labels=tuple(str(r.number) for r in game.rounds),
        series=tuple(
            Series(name, tuple(float(totals[seat]) for totals in running))
            for seat, name in enumerate(game.players)
        ),
    )


@bp.context_processor
def chart_context() -> dict[str, object]:
    return {"totals_chart": totals_chart}

"""Clubs: the same people over many games, with stats, ratings and charts.

Registering the blueprint subscribes the clubs to `core.signals.game_written` (a club keeps
what it derives from its games in the games' own write) and adds `flask clubs refresh`.
"""

import click
from flask import Blueprint
from flask.blueprints import BlueprintSetupState

from referee.engine.names import MAX_NAME
from referee.web.core import signals

bp = Blueprint("clubs", __name__, cli_group="clubs")

from . import messages, routes, service  # noqa: E402,F401


@bp.record_once
def _subscribe(state: BlueprintSetupState) -> None:
    signals.game_written.connect(service.on_game_written)
    # The longest name, said where names are typed (templates/clubs/_names.html).
    state.app.jinja_env.globals["max_name"] = MAX_NAME


@bp.cli.command("refresh")
@click.argument("club_ids", nargs=-1)
@click.option("--full", is_flag=True, help="Sum up every game again and rate from the first.")
def refresh_command(club_ids: tuple[str, ...], full: bool) -> None:
    """Keep up every club (or CLUB_IDS) whose board is behind its games, as after restoring an
    older backup (pages are right meanwhile, only slower). Put `--` before the ids if one begins
    with "-" (ids made before 2026-12 may)."""
    done = service.refresh(club_ids, full=full)
    click.echo(f"clubs kept up: {len(done)}" + "".join(f"\n  {club_id}" for club_id in done))

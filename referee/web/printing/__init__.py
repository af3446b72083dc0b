"""Rule cards and score sheets as pages and PDFs."""

import click
from flask import Blueprint, current_app

from referee.engine.variants import VARIANTS
from referee.web.core.languages import LANGUAGES

bp = Blueprint("printing", __name__, cli_group="pdf")

from . import routes  # noqa: E402,F401
from .cache import pdf_cache  # noqa: E402
from .documents import warm  # noqa: E402


@bp.cli.command("warm")
@click.option("--variant", "variants", multiple=True, help="a variant id (default: every one)")
@click.option("--lang", "languages", multiple=True, help="a language (default: all six)")
@click.option("--paper", "papers", multiple=True, help="a4 or letter (default: both)")
def warm_command(
    variants: tuple[str, ...], languages: tuple[str, ...], papers: tuple[str, ...]
) -> None:
    """Build the common PDFs (rule cards, blank score sheets) into the shared cache now."""
    built = warm(
        current_app,
        variants=list(variants or VARIANTS),
        languages=list(languages or LANGUAGES),
        papers=list(papers or ("a4", "letter")),
    )
    cache = pdf_cache(current_app)
    click.echo(
        f"built {built} PDFs; the cache holds {len(cache)} in {cache.size() // 1024} KB "
        f"(at most {cache.max_bytes // 1024} KB) in {cache.folder}"
    )

"""Words on a score sheet that must fit their place: smaller type where they are too wide,
and column labels on two lines rather than cut ("Kaarten", never "Kaart…")."""

from __future__ import annotations

from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

#: The smallest type a label shrinks to before it takes a second line (labels are never cut).
MIN_LABEL_SIZE = 5.5


def fit(text: str, font: str, size: float, width: float) -> float:
    """The largest size up to `size` at which `text` fits `width` on one line."""
    measured = pdfmetrics.stringWidth(text, font, size)
    if measured <= width or measured == 0:
        return size
    return max(5.0, size * width / measured)


def draw_label(
    canvas: Canvas,
    text: str,
    font: str,
    size: float,
    width: float,
    x: float,
    y: float,
    *,
    left: bool = False,
) -> None:
    """A column label, whole, centred on `x` (or starting there): smaller type where it is
    too wide, two lines where even the smallest type is ("Kaarten", never "Kaart…")."""
    draw = canvas.drawString if left else canvas.drawCentredString
    fitted = fit(text, font, size, width)
    if pdfmetrics.stringWidth(text, font, fitted) <= width + 0.01:
        canvas.setFont(font, fitted)
        draw(x, y, text)
        return
    lines = split_label(text, font, MIN_LABEL_SIZE, width)
    smallest = min(fit(line, font, MIN_LABEL_SIZE, width) for line in lines)
    canvas.setFont(font, smallest)
    for index, line in enumerate(lines):
        draw(x, y + (len(lines) - 1 - index) * (smallest + 0.8), line)


def split_label(text: str, font: str, size: float, width: float) -> list[str]:
    """Two lines of a label: at a space where there is one, else a hyphen in the middle."""
    lines: list[str] = simpleSplit(text, font, size, width)
    if 1 < len(lines) <= 2:
        return lines
    half = (len(text) + 1) // 2
    return [text[:half] + "-", text[half:]]


def shorten(text: str, width: float, size: float, font: str) -> str:
    """`text`, cut with an ellipsis where it would overrun `width`."""
    if pdfmetrics.stringWidth(text, font, size) <= width:
        return text
    while len(text) > 1 and pdfmetrics.stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…"

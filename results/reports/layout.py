"""What every sheet shares: styles, the header block, page footers numbered per sheet, the document build.

A document is a list of ``Section`` (one ranking, one game sheet, one score card…). Each section
starts on a new page of its own paper (``results.reports.paper``), or on the next card of a sheet cut
into cards, and its pages (or cards) are numbered on their own ("page 2 / 3"), so the sheets of a
bundle are numbered as if printed one by one.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    FrameBreak,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from results.reports.data import RoundTimes, SheetHeader
from results.reports.paper import PORTRAIT, Footer, Paper
from results.reports.text import clip, day, duration, fit, label_value, labels, markup, moment, pdf_text

Progress = Callable[[int, int], None]

FONT = "Helvetica"
BOLD = "Helvetica-Bold"
GREY = colors.HexColor("#666666")
RULE = colors.HexColor("#999999")
ZEBRA = colors.HexColor("#f0f0f0")
HEAD = colors.HexColor("#dcdcdc")

TITLE = ParagraphStyle("title", fontName=BOLD, fontSize=15, leading=18, spaceAfter=2)
SUBTITLE = ParagraphStyle("subtitle", fontName=BOLD, fontSize=11, leading=14, spaceAfter=6)
BODY = ParagraphStyle("body", fontName=FONT, fontSize=8, leading=10)
SMALL = ParagraphStyle("small", fontName=FONT, fontSize=7, leading=8.5, textColor=GREY)
CELL = ParagraphStyle("cell", fontName=FONT, fontSize=8, leading=9.5, alignment=TA_LEFT)

#: The grid every table of the sheets uses; callers add their column alignments.
TABLE_STYLE = [
    ("FONT", (0, 0), (-1, -1), FONT, 8),
    ("FONT", (0, 0), (-1, 0), BOLD, 7.5),
    ("LEADING", (0, 0), (-1, -1), 9.5),
    ("BACKGROUND", (0, 0), (-1, 0), HEAD),
    ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, ZEBRA]),
    ("GRID", (0, 0), (-1, -1), 0.3, RULE),
    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
    ("TOPPADDING", (0, 0), (-1, -1), 1),
    ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
    ("LEFTPADDING", (0, 0), (-1, -1), 3),
    ("RIGHTPADDING", (0, 0), (-1, -1), 3),
]


@dataclass(frozen=True)
class Section:
    """One sheet: its header, its title (footer and PDF outline) and its content."""

    header: SheetHeader
    title: str
    flowables: Sequence[Flowable]
    paper: Paper = PORTRAIT


def column_widths(columns: Sequence[tuple[str, float]], width: float) -> list[float]:
    """Widths in points for ``(label, width)`` columns: a width below 1 is a share of what is left."""
    fixed = sum(w for _, w in columns if w >= 1)
    return [w if w >= 1 else w * (width - fixed) for _, w in columns]


def cell(text: str, style: ParagraphStyle = CELL, limit: int = 160) -> Paragraph:
    """A table cell that wraps instead of running into the next column (and is clipped if absurdly long)."""
    return Paragraph(markup(clip(text, limit)), style)


def header_fields(header: SheetHeader) -> list[tuple[str, str]]:
    """Every setting the sheet was played and graded with (the rules §3.3, §3.4 and §4 want them
    printed), as (label, value)."""
    t = labels(header.lang)
    variant = [(t["variant"], header.variant)] if header.variant else []
    return [
        *variant,
        (t["date"], day(header.date, header.lang)),
        (t["place"], header.place),
        (t["lexicon"], f"{header.lexicon} (sha256 {header.lexicon_checksum[:12]})"),
        (t["grading"], header.grading),
        (t["grace"], f"{header.grace_seconds} s"),
        (t["round_time"], round_times(header)),
        (t["base"], header.base),
        (t["tie_break"], header.tie_break),
        (t["printed"], moment(header.generated_at, header.lang)),
    ]


def round_times(header: SheetHeader) -> str:
    """The time per round the sheet's rounds were played at: one time when they all were ("3 min"),
    else each time and its rounds ("3 min (coups 1–5), 2 min (coups 6–20)"; on a sheet of several
    games, "partie 1, coups 1–5 ; partie 2")."""
    times = list(dict.fromkeys(span.seconds for span in header.round_times))
    if len(times) <= 1:
        return duration(times[0] if times else header.round_seconds)
    t = labels(header.lang)
    separator = " ; " if header.lang == "fr" else "; "
    parts = []
    for seconds in times:
        rounds = separator.join(_rounds(span, t) for span in header.round_times if span.seconds == seconds)
        parts.append(f"{duration(seconds)} ({rounds})")
    return ", ".join(parts)


def _rounds(span: RoundTimes, t: dict[str, str]) -> str:
    one = span.first == span.last
    rounds = t["time_round" if one else "time_rounds"].format(first=span.first, last=span.last)
    if not span.game:
        return rounds
    game = t["time_game"].format(game=span.game)
    return game if span.whole else f"{game}, {rounds}"


def header_block(header: SheetHeader, title: str, width: float, extra: Sequence[tuple[str, str]] = ()):
    """Every header field, three to a line."""
    cells = [_field(header.lang, name, value) for name, value in [*header_fields(header), *extra]]
    rows = [cells[i : i + 3] + [""] * (3 - len(cells[i : i + 3])) for i in range(0, len(cells), 3)]
    grid = Table(rows, colWidths=[width / 3] * 3, hAlign="LEFT")
    grid.setStyle(TableStyle([("LEFTPADDING", (0, 0), (-1, -1), 0), ("VALIGN", (0, 0), (-1, -1), "TOP")]))
    return [
        Paragraph(markup(clip(header.tournament, 160)), TITLE),
        Paragraph(f"{markup(title)} — {markup(clip(header.game, 160))}", SUBTITLE),
        grid,
        Spacer(0, 8),
    ]


def _field(lang: str, name: str, value: str) -> Paragraph:
    return Paragraph(f"<b>{markup(label_value(lang, name))}</b>{markup(clip(value, 160))}", BODY)


def build_pdf(sections: Sequence[Section], progress: Progress | None = None) -> bytes:
    """The sections as one PDF; ``progress(done, total)`` after each section is laid out."""
    buffer = io.BytesIO()
    first = sections[0]
    doc = _Document(
        buffer,
        pagesize=first.paper.size,
        title=pdf_text(f"{first.header.tournament} — {first.header.game}"),
        author="duplicate-arbiter",
    )
    papers = list(dict.fromkeys(section.paper for section in sections))  # the first section's first
    doc.addPageTemplates(
        [
            PageTemplate(id=paper.name, frames=paper.frames(), pagesize=paper.size, onPage=paper.draw_cuts)
            for paper in papers
        ]
    )
    doc.build(_story(sections, progress), canvasmaker=_NumberedCanvas)
    return buffer.getvalue()


def _story(sections: Sequence[Section], progress: Progress | None) -> list[Flowable]:
    story: list[Flowable] = []
    for index, section in enumerate(sections):
        if index and section.paper == sections[index - 1].paper and section.paper.cards > 1:
            story.append(FrameBreak())  # the next card of the sheet, or the next sheet
        elif index:
            story += [NextPageTemplate(section.paper.name), PageBreak()]
        story.append(_SectionStart(index, section))
        story.extend(section.flowables)
        if progress is not None:
            story.append(_Done(progress, index + 1, len(sections)))
    return story


class _Document(BaseDocTemplate):
    """Tells the canvas when a frame (a page, or a card of a cut sheet) begins, for its footer."""

    def handle_frameBegin(self, resume=0, pageTopFlowables=None):
        super().handle_frameBegin(resume, pageTopFlowables)
        self.canv.frame_begin(self.frame.footer)


class _SectionStart(Flowable):
    """Marks the pages that follow as this section's (footer, page numbers) and adds an outline entry."""

    #: Placed even on a full page (reportlab's flag for markers that take no room).
    _ZEROSIZE = True

    def __init__(self, index: int, section: Section):
        super().__init__()
        self.index = index
        self.section = section

    def wrap(self, available_width, available_height):
        return 0, 0

    def draw(self):
        header, title = self.section.header, self.section.title
        # A card cut from a sheet says whose card it is; its own heading already names the tournament.
        parts = [header.tournament, header.game, title]
        if self.section.paper.cards > 1:
            parts = [title, header.game]
        self.canv.section_begin((self.index, " · ".join(parts), header.lang))
        key = f"section-{self.index}"
        self.canv.bookmarkPage(key)
        self.canv.addOutlineEntry(pdf_text(title), key, level=0)


class _Done(Flowable):
    """Reports progress when the layout reaches it, i.e. once the section before it is on its pages."""

    _ZEROSIZE = True

    def __init__(self, progress: Progress, done: int, total: int):
        super().__init__()
        self.progress, self.done, self.total = progress, done, total

    def wrap(self, available_width, available_height):
        return 0, 0

    def draw(self):
        self.progress(self.done, self.total)


class _NumberedCanvas(Canvas):
    """Holds the pages back until the end, when each section's count of pages (or cards) is known."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.section = (0, "", "fr")
        #: This page's frames: [where the footer goes, the section shown there].
        self.frames: list[list] = []
        self._pages: list[dict] = []

    def frame_begin(self, footer: Footer) -> None:
        """A new frame goes on with the section in progress, until a section starts in it."""
        self.frames.append([footer, self.section])

    def section_begin(self, section: tuple[int, str, str]) -> None:
        self.section = section
        self.frames[-1][1] = section

    def showPage(self):
        self._pages.append(dict(self.__dict__))
        self._startPage()
        self.frames = []

    def save(self):
        counts = Counter(section[0] for page in self._pages for _, section in page["frames"])
        seen: Counter = Counter()
        for page in self._pages:
            self.__dict__.update(page)
            for footer, (index, text, lang) in self.frames:
                seen[index] += 1
                self._footer(footer, text, labels(lang)["page"].format(n=seen[index], total=counts[index]))
            super().showPage()
        super().save()

    def _footer(self, footer: Footer, left: str, right: str):
        self.setFont(FONT, 7)
        self.setFillColor(GREY)
        self.drawRightString(footer.right, footer.y, right)
        self.drawString(footer.left, footer.y, fit(left, FONT, 7, footer.right - footer.left - 60))

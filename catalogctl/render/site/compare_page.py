"""`compare --format html`: the matrix as one HTML page, laid out with the site's templates.

The page stands alone (its style and its language switch inline, nothing fetched) and speaks the
site's language classes (`l10n`, `has-<lang>`, `tr-<lang>`), so the site can include its table:
metric labels in every language the registry translates them to, the switch shows one.
"""

from __future__ import annotations

from catalogctl.model.reports.compare import CompareReport
from catalogctl.model.reports.site import Localized
from catalogctl.render.compare import EXTERNAL_NOTE, cell_text, change_text
from catalogctl.render.site import environment


def render_html(report: CompareReport) -> str:
    """The page, UTF-8 text."""
    languages = ["en", *sorted({lang for row in report.rows for lang in row.labels})]
    rows = [
        {
            "row": row,
            "label": Localized(text=row.label, i18n=row.labels),
            "cells": [
                {"cell": cell, "text": cell.shown, "change": change_text(row, cell), "full": cell_text(row, cell)}
                for cell in row.cells
            ],
        }
        for row in report.rows
    ]
    return (
        environment()
        .get_template("compare.html")
        .render(
            report=report,
            rows=rows,
            languages=languages,
            external=any(cell.external for row in report.rows for cell in row.cells),
            external_note=EXTERNAL_NOTE,
        )
    )

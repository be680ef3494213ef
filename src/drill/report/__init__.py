"""Progress reports: figures computed once, rendered many ways.

- ``figures.compute(store_or_engine, ...) -> data.ReportData``: every figure. Its SQL is ``queries`` (aggregates
  over the store's tables; the review log is never loaded row by row), the per-card figures are numpy over
  ``card_table``'s columns (retrievability by drill.srs.forgetting), the cohort view is ``cohort``.
- Renderers of the same ReportData: ``terminal`` (Rich), ``markdown``, ``html`` (one self-contained file,
  jinja2 autoescaped, inline SVG), ``jsonout`` (versioned JSON Schema in ``schema.json``), ``csvout``.
- ``anki``: the content as an Anki package (genanki), for ``drill export --anki``.
"""

"""The site's build-time rendering, free of MkDocs.

``overrides/hooks/calculators.py`` adapts it to MkDocs' events; everything
here takes plain values (markdown text, a language, a Jinja environment) so
that it survives a change of site generator and is tested on its own.
"""

"""The benchmark: ``python -m bench`` (``./dev bench``); see the Performance page."""

"""Suite-wide settings: Hypothesis without deadlines, since coverage tracing slows examples."""

from hypothesis import settings

settings.register_profile("calculator", deadline=None)
settings.load_profile("calculator")

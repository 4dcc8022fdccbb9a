"""``python -m calculator``: see :mod:`calculator.cli`."""

import sys

from .cli import main

sys.exit(main())

"""One module per calculator, each holding its compute functions and declaration."""

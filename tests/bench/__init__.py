"""Tests of the benchmark (bench/): pages, targets, report, statistics, Lighthouse, server."""

"""Tests of the Farmini game package."""

"""Tests of each game, one package per game."""

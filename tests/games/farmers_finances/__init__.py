"""Tests of Farmers Finances: rulebook examples, rule scenarios, properties, contract and helper."""

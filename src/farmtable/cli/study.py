"""Commands for studying the games: arena, solo, report, bench, hint (filled in by the agents & arena work)."""

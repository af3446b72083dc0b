"""The rules engine: cards, variants, melds, contracts, scoring and the solver. No Flask here."""

"""Games of the catalogue that are not attack/defend Durak, each a small engine of its own
(`shared/rules/variants-other-games.md`)."""

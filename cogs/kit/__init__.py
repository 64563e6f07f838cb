"""The shared kit: what every other package of the bot uses, using none of them (rules and storage
only) — messages and cards, limits, pages, refusals, the services, pictures and words
(docs/ARCHITECTURE.md, "The packages of `cogs/`", names each module's job)."""

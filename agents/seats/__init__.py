"""Who sits at a game's seats: what names an agent (a spec, an instance or a factory), which
specs read back from a file may be built, and the isolated seat for an agent not trusted."""

"""The arena: bots in any language over the bot protocol, sealed seats, their sandbox."""

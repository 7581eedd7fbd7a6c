"""The ``cribbage`` command line: one module a subcommand, their argument types and options."""

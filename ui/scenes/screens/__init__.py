"""The screens away from the table, as data: the start screen and its Settings panel, the rules,
the statistics and the list of past games; a folder of their own so the table's scenes keep room."""

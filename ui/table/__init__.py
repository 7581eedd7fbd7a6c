"""The pure-Python table (no arcade): the controller and its parts, hints, coach, saves."""

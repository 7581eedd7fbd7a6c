"""The pure-Python table (no arcade): the controller and its parts, the saves; what helps a person
learn (hints, coach, the winning-chance indicator, the tutorial) in ``teaching``."""

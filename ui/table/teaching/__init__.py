"""What helps a person learn at the table: the hint and coach mode (the review's judge at their
position), the winning-chance indicator, and the guided first deal; a folder of its own so the
table's folder keeps room for its parts."""

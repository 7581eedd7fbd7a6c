"""What every command's arguments share: the argument types that check a flag's value in one
line, and the options common to the commands."""

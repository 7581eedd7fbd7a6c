"""The table's judge and what asks it: the judge (a decision's options rated by winning chance),
a seat's winning chance from its own view, and the coach agent that plays the judge's choice."""

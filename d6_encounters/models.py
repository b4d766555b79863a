"""D6 System encounters: participants, initiative, rounds and declared actions."""

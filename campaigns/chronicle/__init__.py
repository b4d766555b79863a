"""The chronicle: play sessions, notes and their mentions, the recap, the timeline, search and the
chronicle book. It stands on the campaigns' records and on the table."""

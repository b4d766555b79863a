"""Time to Kill missions: the bag, the secret Fates and the event log of a running mission."""

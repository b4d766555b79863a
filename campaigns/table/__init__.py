"""The table: rolls and their proofs (fair dice, the roll log), the live channel, click-to-roll
from the sheet and webhooks. It stands on the campaigns' records (campaigns.models, access) and
imports nothing of the chronicle, which stands on it."""

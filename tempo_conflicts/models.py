"""Tempo: rolls from the character page and conflicts tracked as tempo."""

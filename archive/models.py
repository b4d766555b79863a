"""Export and import of characters and whole campaigns as versioned JSON."""

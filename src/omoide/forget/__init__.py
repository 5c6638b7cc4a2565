"""Forget: take records back from every store, leave a tombstone, prove it with a scan."""

"""Storage: the parquet lake, quarantine, and (later) LanceDB and the vault."""

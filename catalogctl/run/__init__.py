"""A run: resolve and preflight before it; after it, `check` with the gate registry, aggregation,
and the readers of what runners write."""

"""What the catalog is: the one loader over a tree, validation, cross-references, contracts and
their digests, cohorts, seeds, formulas, and the layout of the repository."""

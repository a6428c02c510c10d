"""The semantic diff of two catalog trees (and of their cohorts), and its words."""

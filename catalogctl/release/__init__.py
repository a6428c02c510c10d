"""Releases: the ruleset format and digest, the one statement of what a release is, freeze and
tag (both publish a release commit: its tag made and pushed), the changelog, and the list and
verification of cohorts."""

"""Releases: the ruleset format and digest, the one statement of what a release is, freeze, the
changelog, and the list and verification of cohorts."""

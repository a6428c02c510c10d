"""The pull-request gate (`ci`): the release policy between a base and a head, findings, and accepted findings."""

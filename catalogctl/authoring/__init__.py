"""Authoring the catalog: ls and show, new, datasets verify and pin, JSON Schema export."""

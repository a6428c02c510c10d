"""Every output format of every verb (text, JSON, Markdown, GitHub workflow commands): reads
result models, never computes."""

"""The only places third-party I/O libraries are used: YAML (ruamel.yaml), git (pygit2), HTTP
(httpx); atomic files and Markdown escaping beside them."""

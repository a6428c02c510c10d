"""Post-run checks: what a run reports (`results`), how the endpoints client's files are read
(`endpoints`), how scores aggregate (`aggregate`), the gates (`gates`) and `check` itself."""

"""Reports: what each verb returns, one module per verb (or family of verbs), each built on
`base.Report`. A report is what `--format json` writes and what a renderer lays out; nothing reads
it back as an input."""

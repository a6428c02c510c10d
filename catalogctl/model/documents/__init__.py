"""Documents: what a file holds, one module per kind. The catalog's own documents (suite,
benchmark, model, dataset, metrics, ruleset, accepted findings), the configuration, and the files
that travel between the verbs and a runner (a submission, the resolved config, a run's results,
a built site's manifest). Each is read from YAML or JSON and validated on the way in."""

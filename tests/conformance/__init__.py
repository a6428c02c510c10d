"""Generated inputs run through the official MLCommons checkers and through `catalogctl check`."""

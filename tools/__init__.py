"""Documentation tooling: the CLI reference and the example blocks are generated, never typed."""

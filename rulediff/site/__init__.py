"""The static site: pages, their steps and cache, the confined writer; imports any stage but the CLI."""

"""Plumbing any stage may use: processes, GC pause, safe writes, bounded reads, digests; imports only errors."""
